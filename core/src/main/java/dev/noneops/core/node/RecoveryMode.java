package dev.noneops.core.node;

/**
 * Who recovers an interrupted upgrade, and so what {@link Node#recoverUpgrade(
 * dev.noneops.core.config.AgentConfig, RecoveryMode)} takes for interrupted and does with the
 * stack.
 */
public enum RecoveryMode {
  /**
   * An operator ({@code noneops recover}) or a start: an upgrade whose owner (the process that ran
   * it) still runs is that process's to commit; any other is recovered and the stack restarted.
   */
  LIVE,
  /**
   * The daemon while it watches the node: only an upgrade whose owner is gone (or is this process)
   * is taken for interrupted, and the applied configuration must still be the one given once the
   * node lock is held.
   */
  ABANDONED_ONLY,
  /**
   * The recovery gate at boot, before the stack's units: files, links and units are made
   * consistent, and the stack is neither stopped nor started (systemd starts it afterwards).
   */
  AT_BOOT
}
