/**
 * Generated from docs/openapi.json by `npm run openapi` (openapi-typescript). Do not edit:
 * change the zod schemas in lib/ and regenerate.
 */
export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness check */
        get: operations["health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI document */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tasks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the caller's sessions
         * @description One row per session, most recently active first. There is no cursor paging.
         */
        get: operations["listSessions"];
        put?: never;
        /**
         * Submit an agent task, or a lookup task
         * @description Answers at once with status `pending`; poll GET /v1/tasks/{taskId} (every 2 s is recommended) until the status is terminal. With `lookup` (our addition to the spec) the task runs one knowledge-graph recipe with no model and no browser.
         */
        post: operations["createTask"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tasks/{taskId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a task
         * @description A failed task still answers 200; its `error` says why.
         */
        get: operations["getTask"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tasks/{taskId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a task
         * @description A pending task is cancelled at once (200); a running one stops at its next step (202).
         */
        post: operations["cancelTask"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/{sessionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a session's tasks */
        get: operations["getSession"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/end-users/{endUserId}/credentials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Which platforms an end-user has credentials for */
        get: operations["getCredentials"];
        /**
         * Store an end-user's platform credentials
         * @description An idempotent upsert: fields not sent keep their values. Values are encrypted and never returned.
         */
        put: operations["putCredentials"];
        post?: never;
        /**
         * Clear an end-user's credentials
         * @description Irreversible. The end-user and their task history stay.
         */
        delete: operations["deleteCredentials"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/design/extract": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Submit a design extraction
         * @description Runs in a fresh session. Poll GET /v1/tasks/{taskId} until the status is terminal; the result is in `design`.
         */
        post: operations["extractDesign"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/design/extract/{extractor}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Submit a design extraction running one extractor
         * @description The path names the single extractor to run; an `extractors` field in the body is ignored.
         */
        post: operations["extractDesignWith"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the business's API keys (dashboard) */
        get: operations["listApiKeys"];
        put?: never;
        /**
         * Mint an API key (dashboard)
         * @description The response is the only time the secret is shown.
         */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API key (dashboard)
         * @description Immediate and irreversible: the key answers 403 from the next request on.
         */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        ErrorBody: {
            /** @description What went wrong, for a human */
            error: string;
        };
        QuotaErrorBody: {
            /** @description What went wrong, for a human */
            error: string;
            /** @description Monthly task quota of the business */
            limit: number;
            /** @description Tasks counted this month */
            used: number;
        };
        ServerErrorBody: {
            /** @description What went wrong, for a human */
            error: string;
            /** @description Also in the x-request-id header */
            requestId: string;
            /** @description The task kept as failed when it could not be enqueued */
            taskId?: string;
        };
        Ok: {
            /** @constant */
            ok: true;
        };
        CreateTaskRequest: {
            /** @description Your own label for one of your end-users (opaque to the service) */
            endUserId: string;
            /** @description What the agent should do, in natural language; not blank. Required unless `lookup` is given */
            task?: string;
            /** @description Our addition to the spec: run one knowledge-graph lookup recipe directly, with no model and no browser. The task completes with the mapped fields in `result` and `structured_content` */
            lookup?: {
                /** @description Site id of the knowledge graph, e.g. "npm" */
                site: string;
                /** @description Operation of that site, e.g. "package" */
                operation: string;
                /**
                 * @description The operation's parameters
                 * @default {}
                 */
                params: {
                    [key: string]: unknown;
                };
            };
            /** @description A previous task's sessionId, to continue that conversation; omitted starts a new session */
            sessionId?: string;
            /**
             * Format: uri
             * @description Page to start from; skips URL discovery
             */
            startUrl?: string;
            /** @description JSON Schema (at most 64 KB, 24 levels) of the structured output wanted; the completed task then has `structured_content` */
            schema?: {
                [key: string]: unknown;
            };
            /** @description Step budget; default 25, and the server uses min(maxSteps, 25) */
            maxSteps?: number;
            /** @description When true, the finished task carries `html_dump` (raw HTML of the final page) */
            include_html_dump?: boolean;
        } | unknown | unknown;
        Submitted: {
            taskId: string;
            /** @description The session passed, or a new one */
            sessionId: string;
            /** @constant */
            status: "pending";
            /** @description Submission time (ISO 8601) */
            createdAt: string;
        };
        /**
         * @description `completed`, `failed` and `cancelled` are terminal
         * @enum {string}
         */
        TaskStatus: "pending" | "running" | "completed" | "failed" | "cancelled";
        StepSummary: {
            /** @description 1-based step number */
            n: number;
            /** @description The tool or phase: navigate, click, fill, extract, fast_path, done, … */
            type: string;
            msg: string;
            success: boolean;
        };
        /** @description Model usage of an agent task; informational, may change */
        TaskUsage: {
            provider: string;
            model: string;
            modelCalls: number;
            inputTokens: number;
            outputTokens: number;
            totalTokens: number;
            /** @description Null when no list price is known for the model */
            costUsd: number | null;
            modelMs: number;
        };
        TaskView: {
            taskId: string;
            sessionId: string;
            endUserId: string;
            /** @description The prompt as submitted */
            task: string;
            status: components["schemas"]["TaskStatus"];
            /** @description The final answer: a string, or an object for structured results */
            result?: string | {
                [key: string]: unknown;
            };
            /** @description Present when the request had `schema`; conforms to it */
            structured_content?: {
                [key: string]: unknown;
            };
            /** @description Present when the request had `include_html_dump: true` */
            html_dump?: string;
            totalSteps: number;
            durationMs: number;
            /** @description Hosts navigated to, deduplicated, in order */
            visitedUrls: string[];
            stepSummaries: components["schemas"]["StepSummary"][];
            /** @description Present only when `status` is `failed` */
            error?: string;
            /** @description Submission time (ISO 8601) */
            createdAt: string;
            /** @description Last status change (ISO 8601) */
            updatedAt: string;
            /** @description Present on design-extraction tasks */
            design?: components["schemas"]["DesignResult"];
            usage?: components["schemas"]["TaskUsage"];
        };
        CancelledTask: {
            taskId: string;
            sessionId: string;
            endUserId: string;
            /** @description The prompt as submitted */
            task: string;
            status: components["schemas"]["TaskStatus"];
            /** @description The final answer: a string, or an object for structured results */
            result?: string | {
                [key: string]: unknown;
            };
            /** @description Present when the request had `schema`; conforms to it */
            structured_content?: {
                [key: string]: unknown;
            };
            /** @description Present when the request had `include_html_dump: true` */
            html_dump?: string;
            totalSteps: number;
            durationMs: number;
            /** @description Hosts navigated to, deduplicated, in order */
            visitedUrls: string[];
            stepSummaries: components["schemas"]["StepSummary"][];
            /** @description Present only when `status` is `failed` */
            error?: string;
            /** @description Submission time (ISO 8601) */
            createdAt: string;
            /** @description Last status change (ISO 8601) */
            updatedAt: string;
            /** @description Present on design-extraction tasks */
            design?: components["schemas"]["DesignResult"];
            usage?: components["schemas"]["TaskUsage"];
            /** @constant */
            cancelRequested: true;
        };
        /** @description One session; `firstTask` is its first task, usable as a title */
        SessionSummary: {
            sessionId: string;
            firstTask: components["schemas"]["TaskView"];
            turnCount: number;
            latestStatus: components["schemas"]["TaskStatus"];
            /** @description Creation time of the latest task (ISO 8601) */
            latestCreatedAt: string;
            /** @description Last change of the latest task (ISO 8601) */
            latestUpdatedAt: string;
        };
        SessionList: {
            /** @description Most recently active first */
            sessions: components["schemas"]["SessionSummary"][];
        };
        Session: {
            sessionId: string;
            /** @description Oldest first */
            tasks: components["schemas"]["TaskView"][];
        };
        DesignExtractRequest: {
            /**
             * Format: uri
             * @description The page to extract
             */
            url: string;
            /** @description Your own label for one of your end-users (opaque to the service) */
            endUserId: string;
            /** @description Any of images, fonts, colors, icons, tokens, logo; unknown names are dropped; omitted or empty runs all six. Ignored on the path alias. */
            extractors?: string[];
            /** @description Default false; true runs the browser through the residential proxy pool */
            enableIpRotation?: boolean;
        };
        DesignSubmitted: {
            taskId: string;
            /** @description Always a new session */
            sessionId: string;
            /** @constant */
            status: "pending";
            /** @description Submission time (ISO 8601) */
            createdAt: string;
            /** @description The extractors that will run */
            extractors: components["schemas"]["ExtractorName"][];
            enableIpRotation: boolean;
        };
        /**
         * @description A design extractor
         * @enum {string}
         */
        ExtractorName: "images" | "fonts" | "colors" | "icons" | "tokens" | "logo";
        DesignResult: {
            /** @description The page extracted */
            url: string;
            /** @description The extractors that ran */
            extractors: components["schemas"]["ExtractorName"][];
            durationMs: number;
            results: components["schemas"]["DesignResults"];
        };
        /** @description One key per extractor that ran */
        DesignResults: {
            images?: {
                images: components["schemas"]["ImageEntry"][];
            } | components["schemas"]["ExtractorFailure"];
            fonts?: {
                fonts: components["schemas"]["FontEntry"][];
            } | components["schemas"]["ExtractorFailure"];
            colors?: {
                colors: components["schemas"]["PaletteColor"][];
                contrastIssues: components["schemas"]["ContrastIssue"][];
            } | components["schemas"]["ExtractorFailure"];
            icons?: {
                icons: components["schemas"]["IconEntry"][];
            } | components["schemas"]["ExtractorFailure"];
            tokens?: {
                tokens: components["schemas"]["TokensResult"];
            } | components["schemas"]["ExtractorFailure"];
            logo?: {
                logo: components["schemas"]["LogoResult"];
            } | components["schemas"]["ExtractorFailure"];
        };
        ExtractorFailure: {
            error: string;
        };
        ImageEntry: {
            src: string;
            /** @enum {string} */
            type: "img" | "picture" | "background" | "svg";
            naturalWidth: number;
            naturalHeight: number;
            alt: string;
            /** @description Markup of an inline SVG image */
            svgSource?: string;
            /** @description The page URL the image came from, when `src` was replaced */
            originalSrc?: string;
            /** @description Fields cut at their inline size cap; the stored copy is whole */
            truncated?: string[];
            /** @description Presigned URL of the stored copy; expires */
            downloadUrl?: string;
            /** @description Object key of the stored copy */
            s3Key?: string;
        };
        FontEntry: {
            /** @description The first family the site declares for this text (computed stack, quotes stripped), installed on the worker or not */
            family: string;
            /** @enum {string} */
            usage: "heading" | "body" | "ui" | "code";
            /** @description Every usage the family serves, most characters first */
            usages: ("heading" | "body" | "ui" | "code")[];
            /** @description The whole declared font-family stack */
            stack: string[];
            /** @description The family Chromium painted with on the worker; depends on the worker's installed fonts */
            rendered: string;
            count: number;
            weights: number[];
            /**
             * @description `self-hosted`, a web-font service, or `system` when no @font-face serves the family
             * @enum {string}
             */
            source: "google" | "adobe" | "bunny" | "fontshare" | "fonts.com" | "typography.com" | "self-hosted" | "system";
            faceUrl?: string;
            originalFaceUrl?: string;
            /** @description Presigned URL of the stored copy; expires */
            downloadUrl?: string;
            /** @description Object key of the stored copy */
            s3Key?: string;
        };
        PaletteColor: {
            /** @description #RRGGBB */
            hex: string;
            /** @description rgb(r,g,b) */
            rgb: string;
            count: number;
            /** @enum {string} */
            role: "primary" | "background" | "text" | "error" | "success" | "warning" | "neutral";
        };
        ContrastIssue: {
            fg: string;
            bg: string;
            ratio: number;
            passesAA: boolean;
            passesAAA: boolean;
        };
        IconEntry: {
            hash: string;
            /** @description Standalone SVG markup, or `font:<family>:<glyph>` for an icon-font glyph */
            source?: string;
            /** @enum {string} */
            kind: "svg" | "sprite" | "font";
            /** @description Rendered size in CSS px (the larger side) */
            size: number;
            /** @enum {string} */
            style: "outline" | "filled" | "duotone";
            count: number;
            signedUrl?: string;
            /** @description Fields cut at their inline size cap; the stored copy is whole */
            truncated?: string[];
            /** @description Presigned URL of the stored copy; expires */
            downloadUrl?: string;
            /** @description Object key of the stored copy */
            s3Key?: string;
        };
        TokensResult: {
            /** @description W3C Design Tokens (DTCG) document */
            dtcg: {
                [key: string]: unknown;
            };
            spacing: {
                value: number;
                count: number;
            }[];
            radii: {
                value: string;
                count: number;
            }[];
            shadows: {
                value: string;
                count: number;
            }[];
            gradients: {
                value: string;
                count: number;
            }[];
            motionDurationsMs: number[];
            cssVariables: {
                name: string;
                value: string;
            }[];
        };
        LogoResult: {
            found: boolean;
            src?: string;
            /**
             * @description `text` is a wordmark set in type: no image, its text in `alt`
             * @enum {string}
             */
            type?: "img" | "svg" | "background" | "text";
            width?: number;
            height?: number;
            svgSource?: string;
            alt?: string;
            originalSrc?: string;
            /** @description Fields cut at their inline size cap; the stored copy is whole */
            truncated?: string[];
            /** @description Presigned URL of the stored copy; expires */
            downloadUrl?: string;
            /** @description Object key of the stored copy */
            s3Key?: string;
        };
        PutCredentialsRequest: {
            twitterAuthToken?: string;
            twitterCt0?: string;
            redditSession?: string;
            tiktokSessionId?: string;
            tiktokCsrfToken?: string;
            instagramSessionId?: string;
            instagramCsrfToken?: string;
            instagramDsUserId?: string;
        };
        DeleteCredentialsRequest: {
            /** @description Credential fields to clear; omitted or empty clears all of them */
            fields?: ("twitterAuthToken" | "twitterCt0" | "redditSession" | "tiktokSessionId" | "tiktokCsrfToken" | "instagramSessionId" | "instagramCsrfToken" | "instagramDsUserId")[];
        };
        CredentialStatus: {
            endUserId: string;
            /** @description Platform name → whether its login cookie is stored */
            platforms: {
                twitter: boolean;
                reddit: boolean;
                tiktok: boolean;
                instagram: boolean;
            };
        };
        CreateApiKeyRequest: {
            label?: string;
        };
        CreatedKey: {
            businessId: string;
            keyId: string;
            /** @description The secret (`bts_live_` + 40 base62 characters); shown once, store it now */
            apiKey: string;
            /** @description The first characters of the secret, as the dashboard shows them */
            prefix: string;
        };
        KeyView: {
            keyId: string;
            prefix: string;
            label: string | null;
            /** @description ISO 8601 */
            createdAt: string;
            /** @description ISO 8601; refreshed at most once per resolution window */
            lastUsedAt: string | null;
            /** @description ISO 8601; a revoked key answers 403 everywhere */
            revokedAt: string | null;
        };
        KeyList: {
            keys: components["schemas"]["KeyView"][];
        };
    };
    responses: {
        /** @description A known path asked with a verb it does not serve (any path of this document) */
        MethodNotAllowed: {
            headers: {
                /** @description The verbs the path serves */
                allow?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description A path this document does not list */
        UnknownRoute: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Identifies the request in logs; quote it to support */
        RequestId: string;
    };
    pathItems: never;
}
export type ErrorBody = components['schemas']['ErrorBody'];
export type QuotaErrorBody = components['schemas']['QuotaErrorBody'];
export type ServerErrorBody = components['schemas']['ServerErrorBody'];
export type Ok = components['schemas']['Ok'];
export type CreateTaskRequest = components['schemas']['CreateTaskRequest'];
export type Submitted = components['schemas']['Submitted'];
export type TaskStatus = components['schemas']['TaskStatus'];
export type StepSummary = components['schemas']['StepSummary'];
export type TaskUsage = components['schemas']['TaskUsage'];
export type TaskView = components['schemas']['TaskView'];
export type CancelledTask = components['schemas']['CancelledTask'];
export type SessionSummary = components['schemas']['SessionSummary'];
export type SessionList = components['schemas']['SessionList'];
export type Session = components['schemas']['Session'];
export type DesignExtractRequest = components['schemas']['DesignExtractRequest'];
export type DesignSubmitted = components['schemas']['DesignSubmitted'];
export type ExtractorName = components['schemas']['ExtractorName'];
export type DesignResult = components['schemas']['DesignResult'];
export type DesignResults = components['schemas']['DesignResults'];
export type ExtractorFailure = components['schemas']['ExtractorFailure'];
export type ImageEntry = components['schemas']['ImageEntry'];
export type FontEntry = components['schemas']['FontEntry'];
export type PaletteColor = components['schemas']['PaletteColor'];
export type ContrastIssue = components['schemas']['ContrastIssue'];
export type IconEntry = components['schemas']['IconEntry'];
export type TokensResult = components['schemas']['TokensResult'];
export type LogoResult = components['schemas']['LogoResult'];
export type PutCredentialsRequest = components['schemas']['PutCredentialsRequest'];
export type DeleteCredentialsRequest = components['schemas']['DeleteCredentialsRequest'];
export type CredentialStatus = components['schemas']['CredentialStatus'];
export type CreateApiKeyRequest = components['schemas']['CreateApiKeyRequest'];
export type CreatedKey = components['schemas']['CreatedKey'];
export type KeyView = components['schemas']['KeyView'];
export type KeyList = components['schemas']['KeyList'];
export type ResponseMethodNotAllowed = components['responses']['MethodNotAllowed'];
export type ResponseUnknownRoute = components['responses']['UnknownRoute'];
export type HeaderRequestId = components['headers']['RequestId'];
export type $defs = Record<string, never>;
export interface operations {
    health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The API answers */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"];
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document of this API */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    listSessions: {
        parameters: {
            query?: {
                limit?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Sessions */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionList"];
                };
            };
            /** @description `limit` is not a positive integer */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown API key, or a dashboard token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Always `Bearer` */
                    "www-authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Revoked API key, or a resource of another business */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description This API key sent more requests this minute than BTS_RATE_LIMIT_PER_MINUTE allows */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Seconds until the next minute window */
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description What went wrong, for a human */
                        error: string;
                        /** @description Also in the Retry-After header */
                        retryAfterSeconds: number;
                    };
                };
            };
            /** @description Server error; the body names the request id for support */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServerErrorBody"];
                };
            };
        };
    };
    createTask: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTaskRequest"];
            };
        };
        responses: {
            /** @description Created: the task is pending */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Submitted"];
                };
            };
            /** @description Invalid request: malformed JSON, wrong Content-Type, or a field breaking its rule */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown API key, or a dashboard token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Always `Bearer` */
                    "www-authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Revoked API key, or a sessionId of another business */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown sessionId */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body over 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Monthly task quota reached (`limit`, `used`), or the per-key rate limit (`retryAfterSeconds`, Retry-After) */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description What went wrong, for a human */
                        error: string;
                        /** @description Monthly task quota of the business */
                        limit: number;
                        /** @description Tasks counted this month */
                        used: number;
                    } | {
                        /** @description What went wrong, for a human */
                        error: string;
                        /** @description Also in the Retry-After header */
                        retryAfterSeconds: number;
                    };
                };
            };
            /** @description The task could not be enqueued: it is kept as `failed` (its id is in `taskId`) and not counted. Other server errors too. */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServerErrorBody"];
                };
            };
            /** @description No agent model is configured, so only `lookup` tasks can run; nothing was counted */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServerErrorBody"];
                };
            };
        };
    };
    getTask: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                taskId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The task record */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskView"];
                };
            };
            /** @description taskId over 256 characters */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown API key, or a dashboard token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Always `Bearer` */
                    "www-authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Revoked API key, or a resource of another business */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown task */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description This API key sent more requests this minute than BTS_RATE_LIMIT_PER_MINUTE allows */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Seconds until the next minute window */
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description What went wrong, for a human */
                        error: string;
                        /** @description Also in the Retry-After header */
                        retryAfterSeconds: number;
                    };
                };
            };
            /** @description Server error; the body names the request id for support */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServerErrorBody"];
                };
            };
        };
    };
    cancelTask: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                taskId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Cancelled: the task now reads `cancelled` */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CancelledTask"];
                };
            };
            /** @description Cancel requested: the running task stops at its next step */
            202: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CancelledTask"];
                };
            };
            /** @description taskId over 256 characters */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown API key, or a dashboard token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Always `Bearer` */
                    "www-authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Revoked API key, or a resource of another business */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown task */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The task already finished */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description This API key sent more requests this minute than BTS_RATE_LIMIT_PER_MINUTE allows */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Seconds until the next minute window */
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description What went wrong, for a human */
                        error: string;
                        /** @description Also in the Retry-After header */
                        retryAfterSeconds: number;
                    };
                };
            };
            /** @description Server error; the body names the request id for support */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServerErrorBody"];
                };
            };
        };
    };
    getSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session, tasks oldest first */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description sessionId over 256 characters */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown API key, or a dashboard token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Always `Bearer` */
                    "www-authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Revoked API key, or a resource of another business */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown session, or a session with no tasks */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description This API key sent more requests this minute than BTS_RATE_LIMIT_PER_MINUTE allows */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Seconds until the next minute window */
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description What went wrong, for a human */
                        error: string;
                        /** @description Also in the Retry-After header */
                        retryAfterSeconds: number;
                    };
                };
            };
            /** @description Server error; the body names the request id for support */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServerErrorBody"];
                };
            };
        };
    };
    getCredentials: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endUserId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Booleans per platform, never a secret */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CredentialStatus"];
                };
            };
            /** @description endUserId over 256 characters */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown API key, or a dashboard token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Always `Bearer` */
                    "www-authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Revoked API key, or a resource of another business */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description This API key sent more requests this minute than BTS_RATE_LIMIT_PER_MINUTE allows */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Seconds until the next minute window */
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description What went wrong, for a human */
                        error: string;
                        /** @description Also in the Retry-After header */
                        retryAfterSeconds: number;
                    };
                };
            };
            /** @description Server error; the body names the request id for support */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServerErrorBody"];
                };
            };
        };
    };
    putCredentials: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endUserId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PutCredentialsRequest"];
            };
        };
        responses: {
            /** @description Stored */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"];
                };
            };
            /** @description Invalid body or endUserId, or no recognized credential field */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown API key, or a dashboard token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Always `Bearer` */
                    "www-authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Revoked API key, or a resource of another business */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body over 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description This API key sent more requests this minute than BTS_RATE_LIMIT_PER_MINUTE allows */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Seconds until the next minute window */
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description What went wrong, for a human */
                        error: string;
                        /** @description Also in the Retry-After header */
                        retryAfterSeconds: number;
                    };
                };
            };
            /** @description Server error; the body names the request id for support */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServerErrorBody"];
                };
            };
        };
    };
    deleteCredentials: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endUserId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["DeleteCredentialsRequest"];
            };
        };
        responses: {
            /** @description Cleared */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"];
                };
            };
            /** @description Invalid body (a `fields` entry that is not a credential field) or endUserId */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown API key, or a dashboard token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Always `Bearer` */
                    "www-authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Revoked API key, or a resource of another business */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body over 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description This API key sent more requests this minute than BTS_RATE_LIMIT_PER_MINUTE allows */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Seconds until the next minute window */
                    "retry-after"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description What went wrong, for a human */
                        error: string;
                        /** @description Also in the Retry-After header */
                        retryAfterSeconds: number;
                    };
                };
            };
            /** @description Server error; the body names the request id for support */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServerErrorBody"];
                };
            };
        };
    };
    extractDesign: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DesignExtractRequest"];
            };
        };
        responses: {
            /** @description Accepted: the task is pending */
            202: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DesignSubmitted"];
                };
            };
            /** @description Invalid body, or no valid extractor names */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown API key, or a dashboard token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Always `Bearer` */
                    "www-authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Revoked API key, or a resource of another business */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body over 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Monthly task quota reached (`limit`, `used`), or the per-key rate limit (`retryAfterSeconds`, Retry-After) */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description What went wrong, for a human */
                        error: string;
                        /** @description Monthly task quota of the business */
                        limit: number;
                        /** @description Tasks counted this month */
                        used: number;
                    } | {
                        /** @description What went wrong, for a human */
                        error: string;
                        /** @description Also in the Retry-After header */
                        retryAfterSeconds: number;
                    };
                };
            };
            /** @description The task could not be enqueued (nothing was kept or counted), or another server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServerErrorBody"];
                };
            };
        };
    };
    extractDesignWith: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                extractor: components["schemas"]["ExtractorName"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DesignExtractRequest"];
            };
        };
        responses: {
            /** @description Accepted: the task is pending */
            202: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DesignSubmitted"];
                };
            };
            /** @description Invalid body, or an unknown path extractor */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown API key, or a dashboard token */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Always `Bearer` */
                    "www-authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Revoked API key, or a resource of another business */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body over 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Monthly task quota reached (`limit`, `used`), or the per-key rate limit (`retryAfterSeconds`, Retry-After) */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description What went wrong, for a human */
                        error: string;
                        /** @description Monthly task quota of the business */
                        limit: number;
                        /** @description Tasks counted this month */
                        used: number;
                    } | {
                        /** @description What went wrong, for a human */
                        error: string;
                        /** @description Also in the Retry-After header */
                        retryAfterSeconds: number;
                    };
                };
            };
            /** @description The task could not be enqueued (nothing was kept or counted), or another server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServerErrorBody"];
                };
            };
        };
    };
    listApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Keys, without secrets */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KeyList"];
                };
            };
            /** @description Missing or invalid dashboard token, or an API key */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Always `Bearer` */
                    "www-authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Server error; the body names the request id for support */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServerErrorBody"];
                };
            };
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CreateApiKeyRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedKey"];
                };
            };
            /** @description Invalid request: malformed JSON, wrong Content-Type, or a field breaking its rule */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid dashboard token, or an API key */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Always `Bearer` */
                    "www-authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Request body over 1 MiB */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Server error; the body names the request id for support */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServerErrorBody"];
                };
            };
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"];
                };
            };
            /** @description Missing or invalid dashboard token, or an API key */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    /** @description Always `Bearer` */
                    "www-authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown key, or a key of another business */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Server error; the body names the request id for support */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServerErrorBody"];
                };
            };
        };
    };
}
