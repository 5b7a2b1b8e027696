package dev.noneops.acceptance.contract.real;

import dev.noneops.hostfs.RealHost;
import dev.noneops.ports.commands.CommandRunner;
import dev.noneops.testkit.contract.CommandRunnerContract;
import java.time.Duration;
import java.util.List;

/** The {@link CommandRunner} contract with real programs: {@code printf}, {@code sh}, {@code sleep}. */
class RealCommandRunnerContractTest extends CommandRunnerContract {

  private static final CommandRunner RUNNER = RealHost.create().commands();

  @Override
  protected CommandRunner runner() {
    return RUNNER;
  }

  @Override
  protected List<String> printing(String text) {
    return List.of("printf", "%s", text);
  }

  @Override
  protected List<String> failing(int code, String text) {
    return List.of(
        "sh", "-c", "printf '%s' \"$1\" >&2; exit \"$2\"", "sh", text, Integer.toString(code));
  }

  @Override
  protected List<String> runningFor(Duration duration) {
    return List.of("sleep", Long.toString(Math.max(1, duration.toSeconds())));
  }
}
