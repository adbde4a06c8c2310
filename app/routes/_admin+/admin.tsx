import type {
  ActionFunctionArgs,
  HeadersFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { json } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Link,
  useActionData,
  useLoaderData,
  useLocation,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { AccessDenied } from "~/features/admin/components/access-denied";
import { adminHref } from "~/features/admin/components/admin-links";
import { AdminStatCards } from "~/features/admin/components/admin-stat-cards";
import { AdminUsersTable } from "~/features/admin/components/admin-users-table";
import { CreateUserForm } from "~/features/admin/components/create-user-form";
import { UserDetailsDialog } from "~/features/admin/components/user-details-dialog";
import { UserSearchForm } from "~/features/admin/components/user-search-form";
import { UndeliveredMailList } from "~/features/admin/components/undelivered-mail-list";
import { MailSetupBanner } from "~/features/admin/components/mail-setup-banner";
import { WaitlistSection } from "~/features/admin/components/waitlist-section";
import { ListingsAwaitingConsentSection } from "~/features/admin/components/listings-awaiting-consent-section";
import {
  adminWaitlist,
  inviteFromWaitlist,
} from "~/features/accounts/registration/waitlist.procedures.server";
import { OrdersSection } from "~/features/admin/components/orders-section";
import { PayoutsTable } from "~/features/admin/components/payouts-table";
import { AUDIT_CURSOR_PARAM, AuditLogSection } from "~/features/admin/components/audit-log-section";
import { RefundConfirmation } from "~/features/admin/components/refund-confirmation";
import { BanConfirmation } from "~/features/admin/components/ban-confirmation";
import { EraseUserConfirmation } from "~/features/erasure/components/erase-user-confirmation";
import { eraseUser } from "~/features/erasure/procedures/erasure.server";
import {
  isAdminOrderStatus,
  ORDER_SEARCH_MAX,
  ORDER_SEARCH_PARAM,
  ORDER_STATUS_PARAM,
  REFUND_FAILED_TITLE,
  REFUND_PARAM,
  refundedNotice,
} from "~/features/admin/sales-types";
import { adminOrders, refundOrder } from "~/features/market/orders/admin.procedures.server";
import {
  adminRefundRequests,
  approveRefundRequest,
  declineRefundRequest,
} from "~/features/market/orders/refund-requests.procedures.server";
import { RefundRequestsSection } from "~/features/market/orders/components/refund-requests-section";
import { adminPayouts } from "~/features/payouts/transfers/admin.procedures.server";
import { BackLink } from "~/ui/back-link";
import { isSuperAdmin } from "~/lib/accounts";
import { userStatusSchema } from "~/features/admin/schemas";
import {
  ACCESS_DENIED,
  ADMIN_SUBTITLE,
  BAN_PARAM,
  ERASE_PARAM,
  fullName,
  STATUS_UPDATE_FAILED,
} from "~/features/admin/types";
import { PRODUCT_NAME } from "~/lib/product";
import {
  adminAuditLog,
  adminListingsAwaitingConsent,
  adminStats,
  adminUndeliveredMail,
  adminMailSetupAlert,
} from "~/features/admin/procedures/stats-and-audit.server";
import { adminCreateUser, adminUser, adminUsers } from "~/features/admin/procedures/users.server";
import { changeUserStatus } from "~/features/admin/procedures/bans.server";
import { redirectWithFlash } from "~/web/flash.server";
import {
  attemptProcedure,
  flashRefusal,
  intent,
  loadProcedure,
  refusalResponse,
  screenAction,
} from "~/web/screen-action.server";
import { requireScreenUser } from "~/web/screen-guards.server";
import { allOf, flashIntent, unknownAdminIntent } from "~/routes/_admin+/admin-screen.server";
import { ErrorPage } from "~/ui/error-panel";
import { adminReports, decideReport } from "~/features/reports/procedures.server";
import { REPORTS_VIEW_PARAM, ReportsSection } from "~/features/reports/components/reports-section";
import { DropFollowerSection } from "~/features/market/follows/components/drop-follower-section";
import { dropFollower } from "~/features/market/follows/procedures.server";
import type { loader as rootLoader } from "~/root";

export const meta: MetaFunction = ({ error }) => [
  {
    title: `${isRouteErrorResponse(error) && error.status === 403 ? ACCESS_DENIED.title : "Admin Portal"} | ${PRODUCT_NAME}`,
  },
];

/** Admin data never goes into a shared cache. */
export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export async function loader(args: LoaderFunctionArgs) {
  const admin = await requireScreenUser(args.request, { access: "admin" });
  const url = new URL(args.request.url);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 200);
  const viewId = url.searchParams.get("view");
  const orderSearch = (url.searchParams.get(ORDER_SEARCH_PARAM) ?? "")
    .trim()
    .slice(0, ORDER_SEARCH_MAX);
  const statusParam = url.searchParams.get(ORDER_STATUS_PARAM) ?? "";
  // An unknown status in the URL shows every status rather than an error page.
  const orderStatus = isAdminOrderStatus(statusParam) ? statusParam : "";
  const refundId = (url.searchParams.get(REFUND_PARAM) ?? "").trim();
  const banId = (url.searchParams.get(BAN_PARAM) ?? "").trim();
  const eraseId = (url.searchParams.get(ERASE_PARAM) ?? "").trim();
  // A malformed ?audit= cursor shows the newest entries rather than an error page.
  const auditParam = url.searchParams.get(AUDIT_CURSOR_PARAM) ?? "";
  const auditCursor = /^[1-9][0-9]{0,14}$/.test(auditParam) ? auditParam : undefined;
  // ?reports=closed shows the decided reports; anything else the open ones.
  const reportsView: "open" | "closed" =
    url.searchParams.get(REPORTS_VIEW_PARAM) === "closed" ? "closed" : "open";
  /** The user an id in the address names; one it names no one by (a refusal under 500) is null, the rest go to the ErrorBoundary. */
  const namedUser = async (userId: string) => {
    const outcome = await attemptProcedure(adminUser, args, { userId }, admin);
    if (outcome.ok) return outcome.result;
    if (outcome.refusal.status >= 500) throw refusalResponse(outcome.refusal);
    return null;
  };
  return json({
    q,
    orderSearch,
    orderStatus,
    reportsView,
    now: new Date().toISOString(),
    ...(await allOf({
      stats: loadProcedure(adminStats, args, {}, admin),
      users: loadProcedure(adminUsers, args, { q }, admin),
      // An unknown id in ?view= just shows no dialog.
      viewUser: viewId ? namedUser(viewId) : null,
      undelivered: loadProcedure(adminUndeliveredMail, args, {}, admin),
      orders: loadProcedure(
        adminOrders,
        args,
        { q: orderSearch || undefined, status: orderStatus || undefined },
        admin,
      ),
      refundRequests: loadProcedure(adminRefundRequests, args, {}, admin),
      payouts: loadProcedure(adminPayouts, args, {}, admin),
      audit: loadProcedure(adminAuditLog, args, { cursor: auditCursor }, admin),
      // ?refund=<id> opens the confirmation, but only for a paid order; any other id just shows no panel.
      refundTarget:
        refundId && refundId.length <= 100
          ? loadProcedure(adminOrders, args, { q: refundId }, admin).then(
              (found) =>
                found.find((order) => order.id === refundId && order.status === "paid") ?? null,
            )
          : null,
      // ?ban=<id> opens the ban confirmation, but only for a user who can be banned (not banned yet, not the super admin).
      banTarget:
        banId && banId.length <= 200 && !isSuperAdmin({ id: banId })
          ? namedUser(banId).then((found) => (found?.banned ? null : found))
          : null,
      // ?erase=<id> opens the erasure confirmation, but only for a user who can be erased (not erased yet, not the super admin).
      eraseTarget:
        eraseId && eraseId.length <= 200 && !isSuperAdmin({ id: eraseId })
          ? namedUser(eraseId).then((found) => (found?.erasedAt ? null : found))
          : null,
      mailAlert: loadProcedure(adminMailSetupAlert, args, {}, admin),
      waitlist: loadProcedure(adminWaitlist, args, {}, admin),
      reports: loadProcedure(adminReports, args, { status: reportsView }, admin),
      awaitingConsent: loadProcedure(adminListingsAwaitingConsent, args, {}, admin),
    })),
  });
}

/** Where to land after a ban/unban: the same search and dialog the admin was looking at. */
function backTo(request: Request) {
  const url = new URL(request.url);
  const search = new URLSearchParams();
  for (const name of ["q", "view"]) {
    const value = url.searchParams.get(name);
    if (value) search.set(name, value);
  }
  return adminHref(search.toString(), {});
}

export async function action(args: ActionFunctionArgs) {
  const admin = await requireScreenUser(args.request, { access: "admin" });
  const here = new URL(args.request.url).search;
  const banOrUnban = (action: "ban" | "unban") =>
    intent({
      procedure: changeUserStatus,
      fields: userStatusSchema.pick({ userId: true }),
      input: (fields) => ({ ...fields, action }),
      reply: flashRefusal(backTo(args.request), { kind: "error", ...STATUS_UPDATE_FAILED }),
      onSuccess: ({ result: user }) =>
        redirectWithFlash(
          backTo(args.request),
          action === "ban"
            ? {
                kind: "success",
                title: "User banned",
                description: `${fullName(user)} was signed out everywhere and their listings are hidden from the marketplace.`,
              }
            : {
                kind: "success",
                title: "User unbanned",
                description: `${fullName(user)} can sign in again.`,
              },
        ),
    });
  const waitlistBack = `${adminHref(here, {})}#waitlist`;
  const refundRequestsBack = `${adminHref(here, {})}#refund-requests`;
  return screenAction(args, {
    user: admin,
    unknownIntent: unknownAdminIntent,
    intents: {
      ban: banOrUnban("ban"),
      unban: banOrUnban("unban"),
      "erase-user": flashIntent({
        procedure: eraseUser,
        refusedAt: adminHref(here, { [ERASE_PARAM]: null }),
        refused: {
          title: "The account was not erased",
          otherwise: "The account could not be erased.",
        },
        doneAt: adminHref(here, { [ERASE_PARAM]: null, view: null }),
        done: () => ({
          title: "Account erased",
          description:
            "The user is signed out and their listings are gone; their files and personal data are being deleted.",
        }),
      }),
      "create-user": intent({
        procedure: adminCreateUser,
        reply: "form",
        onSuccess: ({ result }) =>
          redirectWithFlash(adminHref("", { view: result.id }), {
            kind: "success",
            title: "User created",
            description: `${result.email} can now sign in.`,
          }),
      }),
      "invite-waitlist": flashIntent({
        procedure: inviteFromWaitlist,
        refusedAt: waitlistBack,
        refused: { title: "No invitation sent", otherwise: "The invitation could not be sent." },
        done: (invitation) => ({
          title: "Invitation sent",
          description: `${invitation.email} can create an account with the mailed link until ${new Date(invitation.expiresAt).toUTCString()}.`,
        }),
      }),
      "decide-report": flashIntent({
        procedure: decideReport,
        refusedAt: `${adminHref(here, {})}#reports`,
        refused: {
          title: "The report was not decided",
          otherwise: "The report could not be decided.",
        },
        done: (report) => ({
          title: report.decision === "remove" ? "Removed" : "Report dismissed",
          description: decisionNotice(report),
        }),
      }),
      "approve-refund-request": flashIntent({
        procedure: approveRefundRequest,
        refusedAt: refundRequestsBack,
        refused: { title: REFUND_FAILED_TITLE, otherwise: "The order could not be refunded." },
        done: (request) => ({
          title: "Refund request approved",
          description: `${refundedNotice(request.orderId)} The buyer and the creators are told.`,
        }),
      }),
      "decline-refund-request": flashIntent({
        procedure: declineRefundRequest,
        refusedAt: refundRequestsBack,
        refused: {
          title: "The refund request was not declined",
          otherwise: "The refund request could not be declined.",
        },
        done: () => ({
          title: "Refund request declined",
          description: "The buyer is mailed your reason; the order stays as it is.",
        }),
      }),
      "drop-follower": flashIntent({
        procedure: dropFollower,
        refusedAt: `${adminHref(here, {})}#follows-heading`,
        refused: { title: "No address dropped", otherwise: "The address could not be dropped." },
        doneAt: `${adminHref(here, {})}#follows-heading`,
        done: (result) => ({
          title: "Follower address dropped",
          description:
            result.dropped === 1
              ? "Its one follow ended; the address is deleted."
              : `${result.dropped} follows ended; the address is deleted.`,
        }),
      }),
      // Back to the same view (with a 502 the confirmation stays open to try again), saying why.
      "refund-order": flashIntent({
        procedure: refundOrder,
        refusedAt: adminHref(here, {}),
        refused: { title: REFUND_FAILED_TITLE, otherwise: "The order could not be refunded." },
        doneAt: adminHref(here, { [REFUND_PARAM]: null }),
        done: (order) => ({ title: "Order refunded", description: refundedNotice(order.id) }),
      }),
    },
  });
}

/** What the admin is told after a decision: where the removed image could not be taken down, and a suspension. */
function decisionNotice(report: {
  decision: "remove" | "dismiss" | null;
  leftUp: readonly { name: string; what: string }[];
  creatorSuspended: boolean;
}): string {
  if (report.decision !== "remove") return "The reporter is told; what the report hid shows again.";
  const parts = [
    "Withdrawn from the marketplace and the storefront; the creator and the reporter are told.",
  ];
  for (const place of report.leftUp) parts.push(`Not taken down on ${place.name}: ${place.what}.`);
  if (report.creatorSuspended)
    parts.push("The creator reached the upheld reports limit and is suspended.");
  return parts.join(" ");
}

export default function AdminPortal() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  /** This page without the dialog that `param` opens. */
  const closing = (param: string) => adminHref(location.search, { [param]: null });
  const registrationOpen = useRouteLoaderData<typeof rootLoader>("root")?.registrationOpen ?? false;
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:py-10">
      <BackLink to="/dashboard">Back to Dashboard</BackLink>
      <header className="mt-4 flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Admin Portal</h1>
            <span
              className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-3 py-1 text-xs font-semibold text-amber-900"
              data-testid="super-admin-badge"
            >
              <svg viewBox="0 0 20 20" className="h-3.5 w-3.5" aria-hidden="true">
                <path fill="currentColor" d="M10 1.5l7 3v5c0 4.3-3 7.6-7 9-4-1.4-7-4.7-7-9v-5z" />
              </svg>
              Super Admin
            </span>
          </div>
          <p className="mt-1 text-slate-600">{ADMIN_SUBTITLE}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link
            to="/payment-monitor"
            className="btn border border-slate-300 bg-white px-4 py-2 text-slate-800 hover:bg-slate-50"
            data-testid="admin-payment-monitor-link"
          >
            Payment Monitor
          </Link>
          <Link
            to="/admin/jobs"
            className="btn border border-slate-300 bg-white px-4 py-2 text-slate-800 hover:bg-slate-50"
            data-testid="admin-jobs-link"
          >
            Jobs
          </Link>
        </div>
      </header>

      <MailSetupBanner alert={data.mailAlert} />

      <div className="mt-8">
        <AdminStatCards stats={data.stats} />
      </div>

      <section aria-labelledby="user-management-heading" className="card mt-8 overflow-hidden">
        <div className="flex flex-col gap-4 border-b border-slate-200 p-5 sm:flex-row sm:items-center sm:justify-between">
          <div>
            <h2 id="user-management-heading" className="text-lg font-semibold text-slate-900">
              User Management
            </h2>
            <p className="text-sm text-slate-600" data-testid="user-count">
              {data.q
                ? `${data.users.length} of ${data.stats.totalUsers} users`
                : `${data.users.length} users`}
            </p>
          </div>
          <UserSearchForm q={data.q} />
        </div>
        <AdminUsersTable users={data.users} q={data.q} />
      </section>

      <ReportsSection
        reports={data.reports}
        view={data.reportsView}
        now={data.now}
        closedHref={`${adminHref(location.search, { [REPORTS_VIEW_PARAM]: "closed" })}#reports`}
        openHref={`${adminHref(location.search, { [REPORTS_VIEW_PARAM]: null })}#reports`}
      />

      <ListingsAwaitingConsentSection
        count={data.awaitingConsent.count}
        listings={data.awaitingConsent.listings}
      />

      <WaitlistSection entries={data.waitlist.entries} spots={data.waitlist.spots} />

      <UndeliveredMailList messages={data.undelivered} />

      <DropFollowerSection />

      <RefundRequestsSection requests={data.refundRequests} />

      <OrdersSection
        orders={data.orders}
        orderSearch={data.orderSearch}
        orderStatus={data.orderStatus}
      />

      <PayoutsTable rows={data.payouts} />

      <AuditLogSection page={data.audit} />

      <div className="mt-8 max-w-3xl">
        <CreateUserForm lastResult={actionData ?? undefined} registrationOpen={registrationOpen} />
      </div>

      {data.refundTarget ? (
        <RefundConfirmation order={data.refundTarget} closeHref={closing(REFUND_PARAM)} />
      ) : null}
      {data.banTarget ? (
        <BanConfirmation user={data.banTarget} closeHref={closing(BAN_PARAM)} />
      ) : null}
      {data.eraseTarget ? (
        <EraseUserConfirmation user={data.eraseTarget} closeHref={closing(ERASE_PARAM)} />
      ) : null}
      {data.viewUser ? (
        <UserDetailsDialog user={data.viewUser} closeHref={closing("view")} />
      ) : null}
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 403) return <AccessDenied />;
  return <ErrorPage error={error} />;
}
