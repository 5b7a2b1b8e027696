package dev.noneops.demo;

/**
 * The machine the demo runs {@code noneops} commands on: the simulated host (in-process CLI runs)
 * or a sandboxed real systemd on a disk (child JVMs inside it), whose power the story cuts and
 * which it boots again.
 */
interface Agent {

  /** Runs {@code noneops <args>} to the end. */
  Run run(String... args) throws Exception;

  /**
   * Runs {@code noneops <args>} (an upgrade) and cuts the machine's power once the upgrade has
   * flipped {@code current} to {@code targetVersion}, i.e. in the middle of the switch-over: every
   * process of the machine dies at once, the agent's among them, and only what is on its disk is
   * left.
   *
   * @return what the command had printed before the cut
   */
  Run runAndCutPowerAfterTheFlip(String targetVersion, String... args) throws Exception;

  /**
   * Boots the machine again on the same disk, with no operator command, and tells what the boot
   * did with the recovery gate and the stack.
   */
  Reboot reboot() throws Exception;

  /** The active version, read from disk. */
  String activeVersion() throws Exception;

  /**
   * One command's end.
   *
   * @param exitCode its exit code ({@code 137} when its machine lost power)
   * @param out its stdout
   * @param err its stderr
   */
  record Run(int exitCode, String out, String err) {}

  /**
   * What a boot after a power cut did.
   *
   * @param gateFirst whether the recovery gate ran to its end before any unit of the stack began
   *     to start
   * @param order what the boot's records show, in a few words
   * @param gateLine the line the gate logged
   * @param daemon the agent's daemon unit after the boot, in a few words
   */
  record Reboot(boolean gateFirst, String order, String gateLine, String daemon) {}
}
