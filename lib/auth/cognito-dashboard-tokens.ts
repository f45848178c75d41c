import { CognitoJwtVerifier } from 'aws-jwt-verify';
import type { DashboardTokenVerifier } from './dashboard-tokens.js';

/** In AWS: Cognito user-pool ID tokens whose `custom:businessId` names the business. */
export class CognitoDashboardTokens implements DashboardTokenVerifier {
  private readonly verifier;

  constructor(userPoolId: string, clientId: string) {
    this.verifier = CognitoJwtVerifier.create({ userPoolId, clientId, tokenUse: 'id' });
  }

  async verify(token: string): Promise<{ businessId: string } | undefined> {
    try {
      const payload = await this.verifier.verify(token);
      const businessId = payload['custom:businessId'];
      return typeof businessId === 'string' && businessId ? { businessId } : undefined;
    } catch {
      return undefined;
    }
  }
}
