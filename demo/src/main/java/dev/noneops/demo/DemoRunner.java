package dev.noneops.demo;

import dev.noneops.cli.ExitCode;
import java.io.PrintWriter;

/**
 * The lifecycle story behind {@code bin/noneops demo} ({@link DemoMain}). It runs the CLI's
 * commands on the testkit's simulated host or on a sandboxed real systemd, so it lives here, next
 * to the fixtures, and not in the CLI's jar.
 */
interface DemoRunner {

  /**
   * Tells the whole story and returns how it ended.
   *
   * @param out the story: each step, its outcome and duration, and the summary table
   * @param err progress of the commands the story runs
   * @param options what the operator asked for
   */
  ExitCode run(PrintWriter out, PrintWriter err, Options options) throws Exception;

  /** Whether {@link #run} would boot a sandboxed systemd with {@code options}, which it asks before. */
  default boolean bootsASandbox(Options options) {
    return false;
  }

  /**
   * @param simulated tell the story on the simulated host even when running as root
   * @param root whether this process runs as root (the real-systemd story needs it)
   */
  record Options(boolean simulated, boolean root) {}
}
