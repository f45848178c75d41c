import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import {
  AccountRecovery,
  ClientAttributes,
  Mfa,
  StringAttribute,
  UserPool,
  type UserPoolClient,
} from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';

export interface DashboardAuthProps {
  retainData: boolean;
}

/**
 * The Cognito user pool whose ID tokens the /v1/api-keys routes verify with
 * aws-jwt-verify (tokenUse `id`: custom attributes are only in ID tokens). The business
 * a dashboard user acts for is the immutable `custom:businessId` attribute, set by an
 * administrator when the user is created and never writable by the user.
 */
export class DashboardAuth extends Construct {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;

  constructor(scope: Construct, id: string, props: DashboardAuthProps) {
    super(scope, id);
    this.userPool = new UserPool(this, 'Users', {
      // Businesses are onboarded by an administrator (AdminCreateUser sets businessId).
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      customAttributes: { businessId: new StringAttribute({ minLen: 1, maxLen: 128, mutable: false }) },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      // The dashboard mints API keys: a second factor is required, TOTP (no SMS role).
      mfa: Mfa.REQUIRED,
      mfaSecondFactor: { otp: true, sms: false },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      deletionProtection: props.retainData,
      removalPolicy: props.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    const planReason =
      'Threat protection needs the Cognito Plus feature plan, billed per monthly active user; the customer opts in. MFA is required instead.';
    Validations.of(this.userPool).acknowledge(
      { id: 'AwsSolutions-COG3', reason: planReason },
      { id: 'AwsSolutions-COG8', reason: planReason },
    );

    this.client = this.userPool.addClient('DashboardClient', {
      // A browser dashboard is a public client: no secret, SRP so passwords never leave it.
      generateSecret: false,
      authFlows: { userSrp: true },
      preventUserExistenceErrors: true,
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
      readAttributes: new ClientAttributes().withStandardAttributes({ email: true }).withCustomAttributes('businessId'),
      // businessId is deliberately absent: a user must not move to another business.
      writeAttributes: new ClientAttributes().withStandardAttributes({ email: true }),
    });
  }
}
