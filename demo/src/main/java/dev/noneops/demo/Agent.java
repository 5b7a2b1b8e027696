package dev.noneops.demo;

/** Where the demo runs {@code noneops} commands: in-process on the simulated host, or as child JVMs in the sandbox. */
interface Agent {

  /** Runs {@code noneops <args>} to the end. */
  Run run(String... args) throws Exception;

  /**
   * Runs {@code noneops <args>} and kills it without warning (SIGKILL, or a simulated crash) once
   * {@code current} has been flipped to the upgrade's target, i.e. in the middle of the switch-over.
   *
   * @return what the killed command had printed
   */
  Run runAndKillAfterTheFlip(String targetVersion, String... args) throws Exception;

  /** The active version, read from disk. */
  String activeVersion() throws Exception;

  /**
   * One command's end.
   *
   * @param exitCode its exit code ({@code 137} when killed)
   * @param out its stdout
   * @param err its stderr
   */
  record Run(int exitCode, String out, String err) {}
}
