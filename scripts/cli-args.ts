/** Tiny argument reader for the operator scripts: `--name value` pairs and positionals. */
export function readArgs(argv = process.argv.slice(2)) {
  const options: Record<string, string> = {};
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg.startsWith("--")) {
      const [name, inline] = arg.slice(2).split("=", 2);
      options[name] = inline ?? argv[++i] ?? "";
    } else {
      positionals.push(arg);
    }
  }
  return { options, positionals };
}

/** Runs an operator command, printing a clean message (no stack) for expected failures. */
export async function runCommand(main: () => Promise<void>) {
  try {
    await main();
    process.exit(0);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
