// vitest globalSetup for the e2e run: start from an empty results/compat/ so the compatibility
// table never mixes this run's records with an earlier run's.
import { resetCompatRecords } from "./compat.mjs";

export default function setup() {
  resetCompatRecords();
}
