/** `catalog keys create|revoke|list`: the server stores only key hashes; a key is shown once. */

import { resolve } from "node:path";
import type { Command } from "commander";
import { CatalogError } from "../lib/errors.js";
import { DEFAULT_KEYS_FILE } from "./options.js";

// loaded when the command runs: `catalog <command>` starts without the other commands' code
const keysModule = () => import("../serve/keys.js");
const plansModule = () => import("../serve/plans.js");

function keysFile(flag: string | undefined): string {
  return resolve(flag ?? process.env.CATALOG_KEYS ?? DEFAULT_KEYS_FILE);
}

export function registerKeys(program: Command): void {
  const keys = program
    .command("keys")
    .description("manage API keys (hashes in the keys file the server reads)");
  keys
    .command("create")
    .description("create a key for a workspace on a plan; prints the key once, as the last line")
    .requiredOption("--workspace <workspace>", "workspace the key belongs to")
    .requiredOption("--plan <plan>", "plan of the workspace, e.g. free or pro")
    .option("--keys <file>", `keys file (env CATALOG_KEYS, default ${DEFAULT_KEYS_FILE})`)
    .option(
      "--plans <file>",
      "plans file the server uses (env CATALOG_PLANS; default: the shipped plans); the plan must be defined there",
    )
    .option("--change-plan", "allow moving an existing workspace (all its keys) to --plan")
    .action(
      async (flags: {
        workspace: string;
        plan: string;
        keys?: string;
        plans?: string;
        changePlan?: boolean;
      }) => {
        if (!/^[A-Za-z0-9._-]{1,64}$/.test(flags.workspace))
          throw new CatalogError("invalid_argument", "--workspace must be 1-64 characters of [A-Za-z0-9._-]");
        const plansPath = flags.plans ?? process.env.CATALOG_PLANS;
        const { loadPlans } = await plansModule();
        const { createKey } = await keysModule();
        const plans = await loadPlans(plansPath ? resolve(plansPath) : undefined);
        const { keyId, key, previousPlan } = await createKey(
          keysFile(flags.keys),
          flags.workspace,
          flags.plan,
          {
            plans,
            changePlan: flags.changePlan ?? false,
          },
        );
        if (previousPlan !== null && previousPlan !== flags.plan)
          process.stderr.write(
            `workspace ${flags.workspace} moved from plan ${previousPlan} to ${flags.plan}\n`,
          );
        process.stderr.write(
          `created key ${keyId} for workspace ${flags.workspace} (plan ${flags.plan}); it is shown only once\n`,
        );
        process.stdout.write(`${key}\n`);
      },
    );
  keys
    .command("revoke")
    .description("revoke a key by its id")
    .argument("<keyId>", "key id as shown by `catalog keys list`")
    .option("--keys <file>", "keys file (env CATALOG_KEYS)")
    .action(async (keyId: string, flags: { keys?: string }) => {
      const { revokeKey } = await keysModule();
      if (!(await revokeKey(keysFile(flags.keys), keyId)))
        throw new CatalogError("invalid_argument", `no active key with id ${keyId}`);
      process.stdout.write(`revoked ${keyId}\n`);
    });
  keys
    .command("list")
    .description("list keys (ids, workspaces, plans; never the keys)")
    .option("--keys <file>", "keys file (env CATALOG_KEYS)")
    .option("--json", "print JSON")
    .action(async (flags: { keys?: string; json?: boolean }) => {
      const { listKeys } = await keysModule();
      const rows = await listKeys(keysFile(flags.keys));
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        return;
      }
      for (const r of rows)
        process.stdout.write(
          `${r.key_id}\t${r.workspace}\t${r.plan}\t${r.created_at}\t${r.revoked_at ? `revoked ${r.revoked_at}` : "active"}\n`,
        );
    });
}
