/** The form a button submits, as plain HTML would post it: its method, action and fields. */
export function formOf(button: HTMLElement) {
  const form = button.closest("form")!;
  return {
    method: form.getAttribute("method"),
    action: form.getAttribute("action"),
    fields: Object.fromEntries(new FormData(form)),
  };
}
