/**
 * The agent configuration: its model ({@link dev.noneops.core.config.AgentConfig}), the parser
 * that validates it, the version name a configuration installs
 * ({@link dev.noneops.core.config.VersionFor}), and the applied configuration a node runs with
 * ({@link dev.noneops.core.config.AppliedConfigStore}), persisted after a successful bootstrap or
 * upgrade and read back at daemon start for upgrade recovery.
 */
package dev.noneops.core.config;
