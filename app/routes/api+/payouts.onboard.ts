import { apiHandler, apiRoutes } from "~/web/api-adapter.server";
import { startPayoutOnboarding } from "~/features/payouts/procedures/accounts-and-onboarding.server";

/** POST /api/payouts/onboard: the creator's payout account (made the first time) and a one-time link to its onboarding. */
const routes = apiRoutes({ POST: apiHandler(startPayoutOnboarding, { body: "json" }) });
export const loader = routes.loader;
export const action = routes.action;
