import type { SettingName } from "~/infra/config.server";

/**
 * What each setting is for, its default and the part of the product it
 * belongs to: the one source of the settings reference in
 * docs/configuration.md, which `npm run docs:settings` writes from it (a test
 * fails when the two differ, or when a setting of config.server.ts has no
 * entry here). Text is Markdown; backticks name settings, values and paths.
 */
export const SETTING_GROUPS = [
  "server",
  "database",
  "accounts",
  "operator",
  "limits",
  "jobs",
  "styling",
  "provenance",
  "payments",
  "mail",
  "selling",
  "files",
] as const;

export type SettingGroup = (typeof SETTING_GROUPS)[number];

export const SETTING_GROUP_TITLES: Record<SettingGroup, string> = {
  server: "The server",
  database: "The database",
  accounts: "Accounts and sign-in",
  operator: "The operator (privacy notice)",
  limits: "Limits",
  jobs: "Jobs and retention",
  styling: "Styling (fal.ai)",
  provenance: "Content Credentials (C2PA)",
  payments: "Payments (Stripe)",
  mail: "Mail",
  selling: "Selling elsewhere",
  files: "Object storage",
};

export interface SettingDescription {
  group: SettingGroup;
  /** What applies when the setting is unset. */
  default: string;
  meaning: string;
}

export const SETTING_DESCRIPTIONS: Record<SettingName, SettingDescription> = {
  NODE_ENV: {
    group: "server",
    default: "`development`",
    meaning: "`production` in the container: secure cookies, HSTS.",
  },
  PORT: {
    group: "server",
    default: "`3000`",
    meaning: "HTTP port.",
  },
  DATA_DIR: {
    group: "server",
    default: "`./data` (`/data` in the container)",
    meaning:
      "Holds everything: the SQLite database (unless `DATABASE_URL` points at PostgreSQL), every image file and the generated app secret. Back up this folder.",
  },
  PUBLIC_URL: {
    group: "server",
    default:
      "`http://localhost:$PORT` for links in mail, the request's origin for the rest; **required when `NODE_ENV=production`**",
    meaning:
      "The public base URL (e.g. `https://selfie.example`) used for absolute links such as checkout return URLs. Links in mail (password resets, library links, receipts, sale notices) are built only from it, never from the request's `Host` or `X-Forwarded-Host`: without it a development server's mail links point at `http://localhost:$PORT`, so set it when you reach that server by another name (a LAN address, a tunnel). Without any configured origin such mails are not sent, and the log says so ([docs/decisions/031-mail-links-from-configured-origin.md](decisions/031-mail-links-from-configured-origin.md)).",
  },
  APP_SECRET: {
    group: "server",
    default: "generated once, kept in `DATA_DIR/app-secret`",
    meaning:
      "Signs cookies and media URLs and derives the encryption keys. At least 32 characters. Never a built-in default. An existing `DATA_DIR/app-secret` shorter than 32 characters stops the start; it is never replaced.",
  },
  TRUST_PROXY: {
    group: "server",
    default: "`0` (`1` in the container and `fly.toml`)",
    meaning:
      "Which proxies to believe about the client's address (used by the throttles, and by the creators' view and add-to-cart counts, where a visitor without an account is their address): a hop count (`1` = one proxy in front; the client is the address that proxy appended to `X-Forwarded-For`, so a client-written entry changes nothing), a comma-separated list of the proxies' addresses or subnets, or `fly` (Fly.io's `Fly-Client-IP`). `true` is refused: it would believe the left-most `X-Forwarded-For` entry, which the client writes. An IPv6 client is counted by its /64 network. The same setting decides whether `X-Forwarded-Host` and `X-Forwarded-Proto` are believed.",
  },
  ROLE: {
    group: "server",
    default: "`all`",
    meaning:
      "What this process does ([Roles](#roles-web-and-worker-processes)): `all` serves requests and runs the job worker and the periodic work (one process does everything, as before); `web` serves requests and runs no job and no periodic work; `worker` runs the job worker and the periodic work and answers only `/healthz` and `/readyz` on `PORT` (every other path 404). `node scripts/start.mjs --role=web` is the same as `ROLE=web`. Any other value stops the start.",
  },
  PERIODIC_PROBE_SECONDS: {
    group: "server",
    default: "unset",
    meaning:
      "A periodic task that does nothing but log `Periodic probe ran at …` every this many seconds (1–86400), under its lease like the others: shows that several workers run periodic work once per period between them (the process tests use it). Leave it unset in production.",
  },
  FOLLOW_DIGEST_CHECK_SECONDS: {
    group: "server",
    default: "`3600`",
    meaning:
      "How often (1–86400 seconds) the worker looks for follows due a digest of their creator's new listings, under its lease (one process across the workers); each follow still gets at most one digest a day.",
  },
  PAGE_CACHE_MS: {
    group: "server",
    default: "`1000`",
    meaning:
      "How long a visitor's copy of `/`, `/landing`, `/training`, `/marketplace`, a listing's page `/marketplace/{id}` or a storefront `/creators/{handle}` (per URL), or an anonymous caller's `GET /api/marketplace` answer without a search, is served to the next visitors. Only visitors with no cookie of the app's (no session, cart or flash message) and no other query parameters than the page's own filters share copies; each response still gets its own CSP nonce, a cached marketplace page still counts its views, and any form post or API write empties the cache. `0` turns it off.",
  },
  PAGE_CACHE_MB: {
    group: "server",
    default: "`32`",
    meaning:
      "How many mebibytes (1–4096) the visitors' page copies may hold together, pages and headers counted; past it the oldest copies go first, and a page larger than 1 MiB is never kept. Bounds the cache's share of the process's memory (`selfie_page_cache_bytes` on `/metrics` shows what it holds). See docs/performance.md for the memory a process needs.",
  },
  MIN_FREE_DISK_MB: {
    group: "server",
    default: "`200`",
    meaning:
      "Below this much free space on `DATA_DIR`'s volume, uploads, styles, optimizations, publishing and listing are refused with 507 instead of failing halfway (`0` turns the check off).",
  },
  METRICS_TOKEN: {
    group: "server",
    default: "unset: `/metrics` is off (404)",
    meaning:
      "The bearer token a Prometheus scraper sends for `GET /metrics` (`Authorization: Bearer <token>`), at least 16 characters. Without it, or with a wrong one, `/metrics` answers 404 like any unknown path. See [Metrics and logs](#metrics-and-logs).",
  },
  LOG_FORMAT: {
    group: "server",
    default: "`json` when `NODE_ENV=production`, else `text`",
    meaning:
      "`json`: every log line is one JSON object (`time`, `level`, `msg`, `requestId`, and `jobId`/`jobKind` in a job). `text`: plain lines, as a terminal reads them.",
  },
  DATABASE_URL: {
    group: "database",
    default: "unset: the SQLite file in `DATA_DIR`",
    meaning:
      "A PostgreSQL URL (`postgres://user:pass@host:5432/db` or `postgresql://…`): the server keeps its data there instead of the SQLite file ([Running on PostgreSQL](#running-on-postgresql)). Behind a pooler (PgBouncer in transaction mode, Fly Managed Postgres's default URL) use the pooled URL here. The value is never repeated in a message or a log line.",
  },
  DATABASE_DIRECT_URL: {
    group: "database",
    default: "`DATABASE_URL`",
    meaning:
      "The direct (unpooled) URL of the same database, used only to migrate (the migration holds a session-level lock a pooler in transaction mode can leave held). Only with `DATABASE_URL`: set alone, it stops the start. **Required** when `DATABASE_URL` looks pooled (port 6432 or 6543, `pgbouncer=true`, a host naming `pgbouncer` or a `pooler`): without it the server refuses to migrate, so does not start; behind a pooler in session mode it may be the same URL.",
  },
  DATABASE_POOL_SIZE: {
    group: "database",
    default: "`10`",
    meaning:
      "Connections each server process keeps open to PostgreSQL (1–100). Every process (each machine, plus the release command and operator commands while they run) opens up to this many: keep `DATABASE_POOL_SIZE × processes` within the connection limit of the database plan (or of its pooler).",
  },
  DATABASE_MAX_LIFETIME_SECONDS: {
    group: "database",
    default: "`300`",
    meaning:
      "The longest a PostgreSQL connection is kept (10–86400 s): an older one is closed when it is next idle and replaced on the next query. Keep it below any proxy's cut: Fly.io's proxy closes the connections it still holds 10 minutes after it starts restarting, and a connection cut mid-query answers 503.",
  },
  ADMIN_EMAIL: {
    group: "accounts",
    default: "`admin@selfie.studio`",
    meaning: "The super admin's email, used when the super admin is first created.",
  },
  ADMIN_PASSWORD: {
    group: "accounts",
    default: "generated and printed once",
    meaning:
      "The super admin's initial password (at least 8 characters, not a common one). Only used when the super admin is first created.",
  },
  SUPPORT_EMAIL: {
    group: "accounts",
    default: "the `ADMIN_EMAIL` value",
    meaning:
      "The address `/contact` gives visitors, buyers and creators for help (a `mailto:` link), and the `Reply-To` of every message the server sends, so a reply to a receipt or a reset reaches someone (the sender, `MAIL_FROM`, is often a no-reply address).",
  },
  OPERATOR_NAME: {
    group: "operator",
    default:
      "unset; **required when `NODE_ENV=production`** unless the server is a demo (`ALLOW_TEST_CHECKOUT=true` without Stripe)",
    meaning:
      "The person or company that runs this server: the controller `/privacy` names (GDPR Art. 13(1)(a)). Without it, a demo's `/privacy` says that the server names no operator.",
  },
  OPERATOR_ADDRESS: {
    group: "operator",
    default: "unset; required as `OPERATOR_NAME` is",
    meaning: "The controller's postal address on one line, as `/privacy` gives it.",
  },
  PRIVACY_EMAIL: {
    group: "operator",
    default: "the `SUPPORT_EMAIL` value; required as `OPERATOR_NAME` is",
    meaning:
      "Where people write about their data (access, correction, objection, a buyer's request): `/privacy` and `/contact` give it.",
  },
  REGISTRATION: {
    group: "accounts",
    default: "`closed`",
    meaning:
      "`open` lets anyone register on /auth and `POST /api/register`: both answer the same whether or not the email has an account, and the address is mailed a link that creates the account (valid 24 hours, once, needs mail set up; after registration closes it works only for an address holding a waiting invitation) or a notice that someone tried. While closed, accounts come from the admin, `npm run user:create`, or an invitation from the waitlist: the Register tab keeps its notice and takes an email for the waitlist (once per address, confirmed by mail, and answered the same whether or not the address was on the list), every sign-up button leads there, and the admin portal's Waitlist section mails an invitation whose link opens registration for that address only, once, within 7 days ([docs/decisions/052-waitlist.md](decisions/052-waitlist.md)).",
  },
  SESSION_DAYS: {
    group: "accounts",
    default: "`30`",
    meaning: "Lifetime of a web session.",
  },
  SESSION_IDLE_DAYS: {
    group: "accounts",
    default: "`7`",
    meaning:
      'A web session left unused this many days ends on its next request, before its `SESSION_DAYS` are up (its last use is recorded at most every 5 minutes). Settings → Security lists a user\'s sessions and API tokens (browser, made, last used) with Revoke on each and "Sign out everywhere else"; a password change there (with the current password) ends every other session and token.',
  },
  TOKEN_DAYS: {
    group: "accounts",
    default: "`30`",
    meaning: "Lifetime of an API bearer token.",
  },
  BETA_SPOTS: {
    group: "accounts",
    default: "`200`",
    meaning:
      "How many accounts the beta takes through waitlist invitations (a whole number, 1 or more). With `DEMO_FIGURES` off, the landing page shows the real spots left: `BETA_SPOTS` minus the invitations that made an account and those still waiting (sent, unused, not expired; one that expired unused gives its spot back); the waitlist's confirmation mail says the same figure (both read `betaSpotsLeft`). The admin's Waitlist shows it too, and an invitation that would take a spot when none is left is refused.",
  },
  DEMO_FIGURES: {
    group: "server",
    default: "`off`",
    meaning:
      "`on` shows the spec's cosmetic figures, each labelled illustrative: a rating on every marketplace card without buyers' ratings, the earning range and demand on the four style cards and the landing's samples, the estimated views and earnings of a launch, and the landing's average earnings, testimonials, earnings box, countdown to midnight UTC and spots (127 of 200, dropping). `npm start` (`scripts/start.mjs --seed`, also the browser tests' server) turns it on unless set; the Dockerfile and fly.toml never do. `off`, for a live store: cards say \"No ratings yet\" until buyers rate, the style cards and launch result show no invented figures (the API keeps `viewsGenerated` and `estimatedEarnings`, documented as estimates), and the landing shows the real spots left (`BETA_SPOTS`) and a countdown only to `BETA_ENDS_AT` ([docs/decisions/087-demo-figures.md](decisions/087-demo-figures.md)).",
  },
  BETA_ENDS_AT: {
    group: "accounts",
    default:
      "unset: no countdown (with `DEMO_FIGURES` on, one to the next midnight UTC, labelled illustrative)",
    meaning:
      'When the beta ends, an ISO date (`2027-03-01`, read as midnight UTC) or date and time (`2027-03-01T12:00:00Z`). The landing page\'s countdown runs to it (in days, hours, minutes and seconds; a reload does not restart it) and "Public registration is closed until …" names its year (without it, the year after the current one).',
  },
  UPHELD_REPORTS_TO_SUSPEND: {
    group: "accounts",
    default: "`3`",
    meaning:
      "A creator with this many upheld reports (the admin's Reports section decided `remove`) is suspended as a ban would: signed out everywhere, listings off the marketplace, owed shares held ([docs/decisions/084-reports-and-takedown.md](decisions/084-reports-and-takedown.md)).",
  },
  UPLOADS_PER_DAY: {
    group: "limits",
    default: "`100`",
    meaning:
      "Images one creator may upload in any 24 hours (deleting an image does not give the upload back).",
  },
  STORAGE_PER_CREATOR_MB: {
    group: "limits",
    default: "`2048`",
    meaning: "Megabytes of originals, styled and optimized images one creator may keep.",
  },
  STYLIZATIONS_PER_DAY: {
    group: "limits",
    default: "`200`",
    meaning: "Styles one creator may ask for in any 24 hours.",
  },
  OPTIMIZATIONS_AT_ONCE: {
    group: "limits",
    default: "`2`",
    meaning: "Optimizations one creator may have running at once.",
  },
  PUBLISH_JOBS_PER_CREATOR: {
    group: "limits",
    default: "`10`",
    meaning: "Publishing jobs one creator may have queued or running at once.",
  },
  REGISTRATIONS_PER_ADDRESS: {
    group: "limits",
    default: "`5`",
    meaning: "Registrations one client address may send in an hour while `REGISTRATION=open`.",
  },
  CHECKOUTS_PER_ADDRESS: {
    group: "limits",
    default: "`30`",
    meaning:
      "Checkouts one client address may start in 10 minutes. Buyers behind one shared address (an office, a mobile carrier's NAT) count together: raise it for such audiences.",
  },
  PAYMENT_STATUS_PER_ADDRESS: {
    group: "limits",
    default: "`120`",
    meaning: "Payment status lookups one client address may make in a minute.",
  },
  LIBRARY_LINKS_PER_ADDRESS: {
    group: "limits",
    default: "`20`",
    meaning:
      "Library links one client address may ask for in an hour (each email also gets at most 3 an hour, whoever asks).",
  },
  WAITLIST_REQUESTS_PER_ADDRESS: {
    group: "limits",
    default: "`10`",
    meaning:
      "Waitlist requests (the Register tab's form while registration is closed) one client address may send in an hour; past it, 429 with the wait.",
  },
  REPORTS_PER_ADDRESS: {
    group: "limits",
    default: "`10`",
    meaning:
      "Reports of listings and storefronts (the Report form, `POST /api/reports`) one client address may send in an hour (each reporter email also at most 5 an hour); past it, 429 with the wait and nothing stored.",
  },
  FOLLOWS_PER_ADDRESS: {
    group: "limits",
    default: "`10`",
    meaning:
      "Follows of creators (the Follow form on storefronts and listing pages, `POST /api/follows`) one client address may ask for in an hour (each follower email also at most 5 an hour); past it, 429 with the wait and nothing stored.",
  },
  SEARCHES_PER_ADDRESS: {
    group: "limits",
    default: "`60`",
    meaning:
      "Marketplace searches (`?q=` on `/marketplace` and `/api/marketplace`; each page of a search counts) one client address may make in a minute; past it, 429 with `Retry-After`. Browsing without a search is not counted.",
  },
  JOB_CONCURRENCY: {
    group: "jobs",
    default: "`2`",
    meaning: "Background jobs (styling, publishing) run at once.",
  },
  JOB_LEASE_SECONDS: {
    group: "jobs",
    default: "`60`",
    meaning:
      "A running job's lease, renewed every third of it while the job runs. After a crash, the job is taken up again once its lease has run out.",
  },
  ORIGINALS_RETENTION_DAYS: {
    group: "jobs",
    default: "unset: originals are kept (`30` in the container and `fly.toml`)",
    meaning:
      "Days an uploaded selfie (the original) is kept. When set (a whole number, 1 or more), a sweep once a day (also at start, when no process ran it in the last day), in one worker process, removes the file of every original older than that, unless one of its styles is still waiting or being made (it is taken by a later sweep). The styles made from it stay; the original no longer shows among the uploads and cannot be styled again. The dashboard's Style step says when each upload will be removed, and `/privacy` states the period.",
  },
  MAIL_RETENTION_DAYS: {
    group: "jobs",
    default: "`30`",
    meaning:
      "Days the row of a message sent or given up on is kept (it keeps only whom the message was for and its subject, which the admin's undelivered mail shows). A purge once a day (also at start, when no process ran it in the last day), in one worker process, deletes the older ones; a message still queued or being sent is never purged. A whole number, 1 or more.",
  },
  FAL_KEY: {
    group: "styling",
    default: "unset",
    meaning:
      "Style with fal.ai instead of the local engine. Each image records which engine made it, and its file's XMP says what it is: IPTC `trainedAlgorithmicMedia` for fal.ai, `composite` for the local engine ([docs/decisions/027-honest-provenance.md](decisions/027-honest-provenance.md)). A fal.ai result smaller than a sold file must be (the upload's long edge, at least 2048 px) is enlarged with fal.ai's Real-ESRGAN (`fal-ai/esrgan`), else Lanczos-3, and the method is recorded (`upscaledBy`); with it, a listed file still smaller is upscaled with Real-ESRGAN too rather than the local Lanczos-3 ([docs/decisions/092-sold-files-at-least-2048-px.md](decisions/092-sold-files-at-least-2048-px.md)). Each request to fal's queue carries `X-Fal-Store-IO: 0`, so fal keeps no copy of its input and output in its request history.",
  },
  C2PA_CERT: {
    group: "provenance",
    default:
      "unset: a certificate the server makes on its first start and keeps in `DATA_DIR/content-credentials.pem`, which no reader trusts",
    meaning:
      "The certificate that signs the Content Credentials (C2PA manifest) of every styled file, optimized copy and purchased download: PEM, the signing certificate first, then its intermediates (line breaks as they are, or written `\\n`). A reader trusts the files' signer only when this chains to a certificate authority it trusts (the C2PA trust list); the self-made certificate's files validate as unchanged but name an untrusted signer (`Selfie Studio self-made certificate (not trusted)`). Set with `C2PA_KEY`; the start refuses one without the other, a key that is not this certificate's, an expired certificate, or a key no C2PA algorithm takes ([docs/decisions/095-content-credentials.md](decisions/095-content-credentials.md)).",
  },
  C2PA_KEY: {
    group: "provenance",
    default: "unset",
    meaning:
      "The private key of `C2PA_CERT`, PEM and unencrypted (`PRIVATE KEY`, `EC PRIVATE KEY` or `RSA PRIVATE KEY`): an EC key on P-256, P-384 or P-521 (ES256, ES384, ES512), Ed25519, or RSA of 2048 bits or more (PS256).",
  },
  FAL_MODEL: {
    group: "styling",
    default: "per-style table (`fal-ai/flux-pro/kontext`)",
    meaning: "One fal.ai model for all four styles.",
  },
  FAL_STYLES: {
    group: "styling",
    default: "unset",
    meaning:
      'JSON overrides per style, e.g. `{"anime":{"model":"...","prompt":"..."}}` (fields: model, prompt, input, imageField). The default prompts (`app/engines/styling/fal-models.server.ts`) follow Black Forest Labs\' Kontext prompting guide: "Change the style to …", then the same person, face, position, scale, pose and framing, kept explicitly; cartoon and anime draw the face itself in the style. A `prompt` given here replaces the whole default, so say what to keep in it too.',
  },
  FAL_TIMEOUT_SECONDS: {
    group: "styling",
    default: "`120`",
    meaning:
      "How long one fal.ai request may take, queue included, before it is cancelled and retried. The photo uploaded to fal.ai and the result are stored there with an expiry of this long (at least 60 s), as the consent text and `/privacy` say.",
  },
  STRIPE_SECRET_KEY: {
    group: "payments",
    default: "unset; **required when `NODE_ENV=production`** (or `ALLOW_TEST_CHECKOUT=true`)",
    meaning:
      'Take payments with Stripe Checkout instead of the built-in test checkout. Without it, anyone can "pay" in the test checkout and download for free, so a production start without it is refused. Once it is set, test orders left over from before can no longer be paid.',
  },
  STRIPE_WEBHOOK_SECRET: {
    group: "payments",
    default: "unset",
    meaning:
      "Verifies Stripe webhooks at `/api/webhooks/stripe` (subscribe to `checkout.session.completed`, `checkout.session.async_payment_succeeded`, `checkout.session.async_payment_failed`, `checkout.session.expired`, `charge.refunded`, `charge.refund.updated`, `refund.failed`, `charge.dispute.created`, `charge.dispute.updated`, `charge.dispute.closed`, `charge.dispute.funds_reinstated`, `radar.early_fraud_warning.created`). Without it (and without the Connect secret) the endpoint answers 404; paid orders are still fulfilled on the buyer's return and on status checks, but refunds made in Stripe's dashboard, disputes and early fraud warnings are not seen. An event verified by this secret must be the platform's own (no connected account named), else 400, nothing changed; one of the other mode than the server's (live with a `sk_live_…`/`rk_live_…` key, else test) answers 200 `ignored`. API version: [integrations.md](integrations.md#stripe-rules).",
  },
  STRIPE_CONNECT_WEBHOOK_SECRET: {
    group: "payments",
    default: "unset",
    meaning:
      "The signing secret of a second, **Connect** webhook endpoint (\"events on connected accounts\") pointing at the same `/api/webhooks/stripe`, subscribed to `account.updated`: it keeps each creator's payout account state current. Without it the state is still refreshed when a creator comes back from Stripe's onboarding. An event verified by this secret must name its connected account (and `account.updated` must describe that account); otherwise 400, nothing changed. Test-mode events (Stripe sends them to live Connect endpoints too) on a live server answer 200 `ignored`.",
  },
  STRIPE_PLATFORM_COUNTRY: {
    group: "payments",
    default: "`US`",
    meaning:
      "The country of the platform's Stripe account (two letters). It decides which creators can be paid and how: see [Platform country, currency and cross-border payouts](payouts.md#platform-country-currency-and-cross-border-payouts). Supported: `US`, `GB`, `CA`, `CH`, the EEA countries where Stripe opens accounts (`AT` … `SE`, `NO`, `LI`), and `AU`, `NZ`, `SG`, `HK` (these four pay creators at home only). The test payout provider follows the same rules.",
  },
  CURRENCY: {
    group: "payments",
    default: "`usd`",
    meaning:
      "The platform's settlement currency: every order, Checkout Session and transfer is in it, and amounts are shown with its symbol. It must be the platform country's currency: `usd` (US), `gbp` (GB), `cad` (CA), `chf` (CH, LI), `eur` (euro countries), `dkk`, `sek`, `nok`, `pln`, `czk`, `huf`, `ron`, `aud`, `nzd`, `sgd`, `hkd`; any other combination stops the start with a message naming the right one. Zero-decimal currencies (such as `jpy`) are not supported. Change it only before the first sale: existing orders keep theirs.",
  },
  ALLOW_TEST_CHECKOUT: {
    group: "payments",
    default: "`false`",
    meaning:
      "With `NODE_ENV=production` and no `STRIPE_SECRET_KEY`, serve the built-in test checkout anyway (a demo). Its sales are marked as test sales and a production server never counts them as revenue or earnings (they are still listed, with `testMode: true`); a development server counts them, so the offline demo shows the money moving. No effect when Stripe is configured.",
  },
  TAX: {
    group: "payments",
    default: "`off`",
    meaning:
      "`on` charges tax at checkout. With Stripe, Checkout computes and collects it with Stripe Tax (`automatic_tax`, the billing address required, each image's tax code `txcd_10501000`, the platform liable; the buyer's business tax ID taken when given), where the platform's Stripe account is registered; the order keeps Stripe's tax and the buyer's country. In the built-in test checkout, buyers who choose a country of the EU or the UK pay its standard VAT rate on digital services (a table in `app/lib/vat-rates.ts`), a business with a well-formed VAT number of its country (not the platform's own, `STRIPE_PLATFORM_COUNTRY`) none (reverse charge); no tax elsewhere or without a country. Tax is never part of a creator's share and is refunded with the order. `off` (the default): none. What the operator must register for: [docs/tax.md](tax.md) ([docs/decisions/102-tax-at-checkout.md](decisions/102-tax-at-checkout.md)).",
  },
  REFUND_WINDOW_DAYS: {
    group: "payments",
    default: "`14`",
    meaning:
      'Days (1–365) after an order\'s payment within which its buyer may ask for a refund, with a reason, from their library or their receipt (`POST /api/refund-requests`): the creators and the admin are told, and the admin approves (the order is refunded) or declines with a reason mailed to the buyer. /terms and the checkout say "refunds within N days on request" with this value ([docs/decisions/089-refund-requests-and-early-fraud-warnings.md](decisions/089-refund-requests-and-early-fraud-warnings.md)).',
  },
  SMTP_URL: {
    group: "mail",
    default: "unset: mail goes to the outbox",
    meaning:
      "The mail server: `smtps://user:pass@smtp.example.com:465` (TLS from the start) or `smtp://user:pass@smtp.example.com:587` (upgraded with STARTTLS; with a user and password for another machine, STARTTLS is required so they never cross the network in clear text, `?requireTLS=false` turns that off for a relay without TLS). Use the SMTP host, port, user and password (or API key) your provider gives you; percent-encode special characters in them (`@` as `%40`, `:` as `%3A`). Anything but `smtp://` or `smtps://` stops the start. The URL is never logged or repeated in an error. Without it, every message is written to the **outbox**, `DATA_DIR/outbox/<time>-<id>.eml` (a complete message any mail program opens), with one log line naming the file, the recipient and the subject; nothing leaves the machine. Mail is sent by background jobs (`mail.send`, 5 attempts with backoff); one that keeps failing, or that the server refuses (5xx), ends `failed` with its reason in the `jobs` table.",
  },
  MAIL_FROM: {
    group: "mail",
    default:
      "`Selfie Studio <no-reply@HOST>`, HOST being `PUBLIC_URL`'s host (`localhost` without `PUBLIC_URL`); **required** in production with `SMTP_URL`",
    meaning:
      "The sender of every message: one address, `studio@example.com` or `Selfie Studio <studio@example.com>`. Providers deliver only from a domain or address you have verified with them, so with `NODE_ENV=production` and `SMTP_URL` set the server refuses to start without it (the made-up default would have every receipt refused).",
  },
  SHOPIFY_CLIENT_ID: {
    group: "selling",
    default: "unset",
    meaning:
      "The Shopify app's client ID and client secret (see [Selling on Shopify](integrations.md#selling-on-shopify)). They enable \"Connect\" for Shopify through OAuth, renew its expiring tokens, and verify its webhooks at `/api/webhooks/shopify` (without the secret that endpoint answers 404). The App URL to set in Shopify is `/api/oauth/shopify/install`. Without them a creator can still connect a store with a custom app's Admin API token (manual setup), but only a store that made its custom app before 1 January 2026: since then Shopify lets no one create new ones.",
  },
  SHOPIFY_CLIENT_SECRET: {
    group: "selling",
    default: "unset",
    meaning: "Its secret (the app's client secret).",
  },
  ADOBE_STOCK_SFTP_HOST: {
    group: "selling",
    default: "`sftp.contributor.adobestock.com`",
    meaning:
      "Adobe Stock's contributor SFTP server (see [Submitting to Adobe Stock](integrations.md#submitting-to-adobe-stock)). Change it only to point at a test server.",
  },
  ADOBE_STOCK_SFTP_PORT: {
    group: "selling",
    default: "`22`",
    meaning: "Its port.",
  },
  AWS_ENDPOINT_URL_S3: {
    group: "files",
    default: "unset: AWS S3 itself",
    meaning:
      "The S3-compatible endpoint: `https://fly.storage.tigris.dev` (Tigris), `https://<account>.r2.cloudflarestorage.com` (R2), a MinIO URL. Files go to object storage only when `FILES_S3_BUCKET` is set ([Running with object storage](#running-with-object-storage)).",
  },
  AWS_REGION: {
    group: "files",
    default: "`auto` with `AWS_ENDPOINT_URL_S3`; **required** without it",
    meaning:
      "The region the requests are signed for (`auto` for Tigris and R2, the buckets' region such as `eu-west-1` for AWS S3). Without `AWS_ENDPOINT_URL_S3` (AWS S3 itself) the server refuses to start when it is unset or `auto`, which AWS refuses.",
  },
  AWS_ACCESS_KEY_ID: {
    group: "files",
    default: "unset",
    meaning:
      "The object store's access key id; **required** with object storage. Never logged or repeated in an error.",
  },
  AWS_SECRET_ACCESS_KEY: {
    group: "files",
    default: "unset",
    meaning: "Its secret; **required** with object storage. Never logged or repeated in an error.",
  },
  FILES_S3_BUCKET: {
    group: "files",
    default: "unset: files on the local volume",
    meaning:
      "The private bucket (originals, styled and optimized images, listings, kits, exports, releases). Setting any object storage setting without `FILES_S3_BUCKET`, `FILES_S3_PUBLIC_BUCKET`, `FILES_PUBLIC_BASE_URL` and both keys stops the start with one line naming what is missing.",
  },
  FILES_S3_PUBLIC_BUCKET: {
    group: "files",
    default: "unset",
    meaning:
      "The public bucket: marketplace previews with their variants and social cards, landing samples, profile photos. Readable by anyone (directly or through a CDN).",
  },
  FILES_PUBLIC_BASE_URL: {
    group: "files",
    default: "unset",
    meaning:
      "Where the public bucket is served: the CDN's address or the bucket's public address; pages link public files at `FILES_PUBLIC_BASE_URL/<key>`.",
  },
  FILES_S3_FORCE_PATH_STYLE: {
    group: "files",
    default: "`true` with `AWS_ENDPOINT_URL_S3`, else `false`",
    meaning:
      "Path-style addressing (`endpoint/bucket/key`, what MinIO and s3rver need and Tigris and R2 accept) rather than `bucket.endpoint/key` (AWS's own style).",
  },
};
