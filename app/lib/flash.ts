/** A one-time message shown after a redirect (and by client-side toasts). */
export interface FlashMessage {
  kind: "success" | "error" | "info";
  title: string;
  description?: string;
}
