import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { PageHeader } from "~/ui/page-header";
import type { PublicUser } from "~/lib/accounts";
import { apiRequest, AUTH_TOKEN_KEY, storedToken } from "~/ui/api-client";
import { PRODUCT_NAME } from "~/lib/product";
import { loadProcedure } from "~/web/screen-action.server";
import { tokenTestDefaults } from "~/features/accounts/sessions/procedures.server";

export const meta: MetaFunction = () => [{ title: `Token Test | ${PRODUCT_NAME}` }];

/**
 * On a development server, prefilled with the local demo account when it was
 * seeded, otherwise with the admin's email only; anywhere else it starts empty
 * (app/features/accounts/sessions/token-test-prefill.server.ts).
 */
export async function loader(args: LoaderFunctionArgs) {
  return json(await loadProcedure(tokenTestDefaults, args, {}, null));
}

export default function TokenTest() {
  const prefill = useLoaderData<typeof loader>();
  const [email, setEmail] = useState(prefill.email);
  const [password, setPassword] = useState(prefill.key);
  const [user, setUser] = useState<PublicUser | null>(null);
  const [hasToken, setHasToken] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  // Until hydration (and forever without JavaScript) the page says it needs JavaScript.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  useEffect(() => {
    if (!storedToken()) return;
    setHasToken(true);
    apiRequest("GET", "/api/token-user")
      .then((response) => response.json())
      .then(setUser)
      .catch(() => {
        window.localStorage.removeItem(AUTH_TOKEN_KEY);
        setHasToken(false);
      });
  }, []);

  async function login(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const response = await apiRequest("POST", "/api/token-login", { email, password });
      const body = (await response.json()) as { token: string; user: PublicUser };
      window.localStorage.setItem(AUTH_TOKEN_KEY, body.token);
      setHasToken(true);
      setUser(body.user);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  }

  async function logout() {
    try {
      await apiRequest("POST", "/api/token-logout");
    } catch {
      // The token is dropped either way.
    }
    window.localStorage.removeItem(AUTH_TOKEN_KEY);
    setHasToken(false);
    setUser(null);
  }

  function startUpload() {
    if (!storedToken()) {
      window.alert("Please login first");
      return;
    }
    fileInput.current?.click();
  }

  async function upload(file: File) {
    const token = storedToken();
    if (!token) {
      window.alert("Please login first");
      return;
    }
    const body = new FormData();
    body.append("image", file);
    try {
      const response = await fetch("/api/token-images/upload", {
        method: "POST",
        headers: { Authorization: `Bearer ${token}` },
        body,
      });
      const text = await response.text();
      window.alert(response.ok ? `Upload successful: ${text}` : `Upload failed: ${text}`);
    } catch (caught) {
      window.alert(`Upload error: ${caught instanceof Error ? caught.message : String(caught)}`);
    }
  }

  return (
    <div className="mx-auto max-w-2xl px-4 py-10">
      <PageHeader title="Token Test" subtitle="A developer page for the bearer-token API." />
      {hydrated ? null : (
        <p className="mt-6 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
          This developer page needs JavaScript.
        </p>
      )}
      {user ? (
        <div className="card mt-6 space-y-4 p-6" data-testid="token-user">
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="font-medium text-slate-600">Email</dt>
            <dd>{user.email}</dd>
            <dt className="font-medium text-slate-600">User ID</dt>
            <dd className="font-mono">{user.id}</dd>
            <dt className="font-medium text-slate-600">Token</dt>
            <dd>{hasToken ? "Present" : "Missing"}</dd>
          </dl>
          <div className="flex flex-wrap gap-2">
            <button type="button" className="btn-primary" onClick={startUpload}>
              Test Image Upload
            </button>
            <button type="button" className="btn-secondary" onClick={logout}>
              Logout
            </button>
          </div>
          <label className="sr-only" htmlFor="token-test-file">
            Image to upload
          </label>
          <input
            id="token-test-file"
            ref={fileInput}
            type="file"
            accept="image/*"
            className="hidden"
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) void upload(file);
              event.target.value = "";
            }}
          />
        </div>
      ) : (
        <form method="post" onSubmit={login} className="card mt-6 space-y-4 p-6">
          {error ? (
            <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800">
              {error}
            </p>
          ) : null}
          <div>
            <label htmlFor="token-email" className="field-label">
              Email
            </label>
            <input
              id="token-email"
              type="email"
              className="field-input"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </div>
          <div>
            <label htmlFor="token-password" className="field-label">
              Password
            </label>
            <input
              id="token-password"
              type="password"
              className="field-input"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </div>
          <p className="text-sm text-slate-600">Token present: {hasToken ? "yes" : "no"}</p>
          <button type="submit" className="btn-primary" disabled={busy || !hydrated}>
            {busy ? "Logging in..." : "Login"}
          </button>
        </form>
      )}
    </div>
  );
}
