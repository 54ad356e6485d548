/**
 * The list of `agent doctor` checks, in the order their lines print, and what they
 * read (the registry among it). This is the hub's light door for `agent doctor`: the
 * checks load lazily and never a model SDK. Add yours with one line:
 * `(d) => import("../spend/doctor.ts").then((m) => m.budgetCheck(d)),`
 *
 * @module
 */
import type { Check } from "../doctor/types.ts";
import {
  componentsCheck,
  configCheck,
  envCheck,
  foldersCheck,
  personaCheck,
  rolesCheck,
  sessionsCheck,
} from "../doctor/core_checks.ts";

export type { Check, CheckResult, DoctorContext } from "../doctor/types.ts";
export type { Registry } from "../components/registry.ts";
export { loadComponents } from "./components.ts";
// What `agent components` prints the registry with (the groups in order, one entry).
export { COMPONENT_GROUPS, type ComponentInfo } from "../components/types.ts";

/** Every doctor check, in order. */
export const CHECKS: Check[] = [
  configCheck,
  rolesCheck,
  // A local-runtime role's line: right below the other roles, since it stands for one.
  (d) => import("../models/doctor.ts").then((m) => m.localRuntimeCheck(d)),
  sessionsCheck,
  personaCheck,
  envCheck,
  foldersCheck,
  componentsCheck,
  (d) => import("../spend/doctor.ts").then((m) => m.budgetCheck(d)),
  (d) => import("../subs/doctor.ts").then((m) => m.subsCheck(d)),
  (d) => import("../mcp/doctor.ts").then((m) => m.toolsCheck(d)),
  (d) => import("../network/doctor.ts").then((m) => m.networkCheck(d)),
  (d) => import("../channels/messenger/doctor.ts").then((m) => m.messengerCheck(d)),
  (d) => import("../channels/email/doctor.ts").then((m) => m.emailCheck(d)),
  (d) => import("../daemon/doctor.ts").then((m) => m.hubCheck(d)),
  (d) => import("./jobs_doctor.ts").then((m) => m.jobsCheck(d)),
];
