import { useNavigation } from "@remix-run/react";

/** Whether the form posting `intent` is being sent (or its answer loaded): its submit button waits meanwhile. */
export function useIntentPending(intent: string): boolean {
  const navigation = useNavigation();
  return navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
}
