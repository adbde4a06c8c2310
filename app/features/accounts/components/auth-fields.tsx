import type { FieldMetadata } from "@conform-to/react";
import { TextField } from "~/ui/form-field";
import { LinkLine } from "~/ui/link-line";

/** The first and last name, side by side on a wide screen (the registration forms). */
export function NameFields({
  firstName,
  lastName,
}: {
  firstName: FieldMetadata<string>;
  lastName: FieldMetadata<string>;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField field={firstName} label="First Name" autoComplete="given-name" />
      <TextField field={lastName} label="Last Name" autoComplete="family-name" />
    </div>
  );
}

/** A password being chosen (registering, or resetting a forgotten one). */
export function NewPasswordField({
  field,
  label = "Password",
}: {
  field: FieldMetadata<string>;
  label?: string;
}) {
  return (
    <TextField
      field={field}
      label={label}
      type="password"
      placeholder="Minimum 8 characters"
      autoComplete="new-password"
    />
  );
}

/** The link back to the sign-in page, under a card's form or message. */
export function BackToSignIn() {
  return (
    <LinkLine to="/auth" className="mt-6 text-sm">
      Back to sign in
    </LinkLine>
  );
}
