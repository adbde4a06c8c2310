import { Field, Label, Switch } from "@headlessui/react";
import { useState } from "react";
import { useHydrated } from "~/ui/use-hydrated";

/**
 * An on/off setting that posts like a checkbox ("on" when on, absent when off).
 * Without JavaScript it is a real checkbox; with it, a Headless UI switch.
 */
export function StudioSwitch({
  name,
  label,
  description,
  checked,
  defaultChecked,
  onChange,
}: {
  name: string;
  label: string;
  description?: string;
  checked?: boolean;
  defaultChecked?: boolean;
  onChange?: (checked: boolean) => void;
}) {
  const hydrated = useHydrated();
  const [own, setOwn] = useState(defaultChecked ?? false);
  const on = checked ?? own;
  const set = (value: boolean) => {
    setOwn(value);
    onChange?.(value);
  };

  if (!hydrated) {
    return (
      <label className="flex items-start gap-3">
        <input type="checkbox" name={name} defaultChecked={on} className="choice-input" />
        <span>
          <span className="field-label">{label}</span>
          {description ? <span className="block text-xs text-slate-500">{description}</span> : null}
        </span>
      </label>
    );
  }
  return (
    <Field className="flex items-start gap-3">
      <Switch
        checked={on}
        onChange={set}
        className="group relative mt-0.5 inline-flex h-6 w-11 shrink-0 rounded-full bg-slate-300 transition-colors data-[checked]:bg-brand-600"
      >
        <span className="inline-block h-5 w-5 translate-x-0.5 translate-y-0.5 rounded-full bg-white shadow transition-transform group-data-[checked]:translate-x-[1.375rem]" />
      </Switch>
      <span>
        <Label className="field-label">{label}</Label>
        {description ? <span className="block text-xs text-slate-500">{description}</span> : null}
      </span>
      {on ? <input type="hidden" name={name} value="on" /> : null}
    </Field>
  );
}
