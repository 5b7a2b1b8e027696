package dev.noneops.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.cli.ExitCode;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** {@code noneops demo --simulated} tells the whole story and succeeds; its rollback is one FAIL line. */
class DemoOnSimulatedHostTest {

  @Test
  void theSimulatedStoryRunsEveryStepAndLeavesTheHostAsItWas() throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    ExitCode code = new LifecycleDemo()
        .run(
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            new DemoRunner.Options(true, false));

    assertThat(code).as(out.toString()).isEqualTo(ExitCode.OK);
    assertThat(out.toString())
        .contains("SIMULATED host")
        .contains("automatic rollback")
        .contains("exit 6 (rolled back)")
        .contains("power cut in the middle of an upgrade")
        .contains("boot again on the same disk: the recovery gate runs before the stack")
        .contains("no operator command")
        .contains("runs no containers")
        .contains("simulated file tree identical to before the demo")
        .contains("SUCCESS: ");
    String rollbackStep = out.toString()
        .lines()
        .dropWhile(l -> !l.contains("that never gets ready: automatic rollback"))
        .takeWhile(l -> !l.startsWith("    => "))
        .reduce("", (a, b) -> a + b + "\n");
    assertThat(rollbackStep.lines().filter(l -> l.contains("FAIL")))
        .as(rollbackStep)
        .hasSize(1);
    assertThat(rollbackStep
            .lines()
            .filter(l -> l.contains("noneops upgrade: ")
                && l.contains(" failed at ")
                && l.contains("rolled back")))
        .as(rollbackStep)
        .hasSize(1);
  }
}
