import type { CallContext } from "~/infra/call-context.server";

/**
 * What the account's own answers hold of other features, asked through
 * functions they hand in (app/boot/studio-ties.server.ts builds them, every
 * call carries them as `ctx.ties.accounts`): accounts imports no market code.
 */
export interface AccountsTies {
  /** The creator's confirmed followers (a count; the market keeps the follows). */
  followerCount: (ctx: CallContext, userId: string) => Promise<number>;
}

declare module "~/infra/call-context.server" {
  interface FeatureTies {
    /** The account's ties to the market. */
    accounts: AccountsTies;
  }
}
