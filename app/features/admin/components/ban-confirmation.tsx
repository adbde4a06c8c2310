import type { ReactNode } from "react";
import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from "@headlessui/react";
import { Form, Link, useLocation, useNavigate, useNavigation } from "@remix-run/react";
import type { AdminUser } from "~/features/admin/types";
import { BAN_CONSEQUENCES, fullName } from "~/features/admin/types";
import { useHydrated } from "~/ui/use-hydrated";

/**
 * "Ban <name>?": addressed by the URL (?ban=<id>). Without JavaScript the
 * server renders it as a plain modal panel whose form posts intent=ban and
 * whose Cancel is a link; once hydrated it is a Headless UI Dialog (focus
 * trap, Escape and backdrop click cancel).
 */
export function BanConfirmation({ user, closeHref }: { user: AdminUser; closeHref: string }) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const close = () => navigate(closeHref, { preventScrollReset: true });
  const title = (
    <>
      Ban <span className="break-all">{fullName(user)}</span>?
    </>
  );

  if (!hydrated) {
    return (
      <div className="relative z-50">
        <div className="fixed inset-0 bg-slate-900/50" aria-hidden="true" />
        <div className="fixed inset-0 flex items-center justify-center overflow-y-auto p-4">
          <div
            role="dialog"
            aria-modal="true"
            aria-labelledby="ban-title"
            className="card w-full max-w-lg p-6 shadow-xl"
            data-testid="ban-confirmation"
          >
            <h2 id="ban-title" className="text-lg font-semibold text-slate-900">
              {title}
            </h2>
            <BanForm
              user={user}
              cancel={
                <Link to={closeHref} className="btn-secondary" preventScrollReset>
                  Cancel
                </Link>
              }
            />
          </div>
        </div>
      </div>
    );
  }

  return (
    <Dialog open onClose={close} className="fixed inset-0 z-50 overflow-y-auto">
      <DialogBackdrop className="fixed inset-0 bg-slate-900/50" />
      <div className="relative flex min-h-full items-center justify-center p-4">
        <DialogPanel className="card w-full max-w-lg p-6 shadow-xl" data-testid="ban-confirmation">
          <DialogTitle className="text-lg font-semibold text-slate-900">{title}</DialogTitle>
          <BanForm
            user={user}
            cancel={
              <button type="button" className="btn-secondary" onClick={close}>
                Cancel
              </button>
            }
          />
        </DialogPanel>
      </div>
    </Dialog>
  );
}

function BanForm({ user, cancel }: { user: AdminUser; cancel: ReactNode }) {
  const location = useLocation();
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === "ban";
  return (
    <Form method="post" action={`/admin${location.search}`} preventScrollReset className="mt-4">
      <input type="hidden" name="intent" value="ban" />
      <input type="hidden" name="userId" value={user.id} />
      <p className="truncate text-sm text-slate-600" title={user.email}>
        {user.email}
      </p>
      <p className="mt-3 text-sm text-slate-700">{BAN_CONSEQUENCES}</p>
      <div className="mt-6 flex flex-wrap justify-end gap-2">
        {cancel}
        <button
          type="submit"
          className="btn bg-red-600 text-white hover:bg-red-700 disabled:opacity-60"
          disabled={pending}
          data-testid="confirm-ban"
        >
          {pending ? "Banning..." : "Ban user"}
        </button>
      </div>
    </Form>
  );
}
