package dev.noneops.benchmarks.e2e;

import dev.noneops.testkit.fixtures.sandbox.SystemdSandbox;
import java.util.ArrayList;
import java.util.List;

/**
 * Command lines that run a command inside a sandbox through {@code nsenter}, either as it is or
 * measured: under GNU {@code /usr/bin/time -v} (peak RSS, user and system CPU time of the command
 * and its children) in a bash that reads {@code $EPOCHREALTIME} (microseconds, no process of its
 * own) right before and after, because {@code /usr/bin/time} reports wall time in 10 ms steps only.
 * The wall time is the last stderr line, {@value #WALL_MARK}{@code <microseconds>}.
 */
final class TimedCommand {
  static final String WALL_MARK = "noneops-bench-wall-us ";
  private static final String SCRIPT = "t0=$EPOCHREALTIME; /usr/bin/time -v \"$@\"; rc=$?;"
      + " t1=$EPOCHREALTIME; echo \"" + WALL_MARK + "$(( ${t1/./} - ${t0/./} ))\" >&2; exit $rc";

  private final SystemdSandbox sandbox;

  TimedCommand(SystemdSandbox sandbox) {
    this.sandbox = sandbox;
  }

  /** {@code command} inside the sandbox, not measured. */
  List<String> plain(List<String> command) {
    return sandbox.inside(command);
  }

  /** {@code command} inside the sandbox, measured. */
  List<String> measured(List<String> command) {
    List<String> full = new ArrayList<>(List.of("env", "LC_ALL=C", "bash", "-c", SCRIPT, "bash"));
    full.addAll(command);
    return sandbox.inside(full);
  }
}
