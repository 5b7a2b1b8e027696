package dev.noneops.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.noneops.cli.ExitCode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import jnr.posix.POSIXFactory;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/noneops demo}, the README's first command, tells its whole story on a sandboxed real
 * systemd on a disk, in a network of its own: bootstrap, real pods, upgrade, an automatic rollback,
 * a power cut right after an upgrade's flip and the boot after it, where the recovery gate rolls
 * the node back before its stack starts with no operator command, the pods ended and started
 * again around each of those, prune, a teardown that leaves none of the pods' mounts, links,
 * network namespaces and cgroups, and the host left as it was. Runs as root, as CI does.
 */
class DemoOnSandboxedSystemdSystemTest {

  @Test
  void theWholeStoryRunsOnASandboxedSystemdAndLeavesTheHostAsItWas() throws Exception {
    assumeTrue(POSIXFactory.getNativePOSIX().getuid() == 0, "the sandboxed systemd needs root");
    Path jar =
        Path.of("..", "adapter-cli", "target", "noneops.jar").toAbsolutePath().normalize();
    assertThat(jar)
        .as("the CLI jar the demo's agent runs (built by the reactor before this module)")
        .exists();
    System.setProperty("noneops.jar", jar.toString());
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    ExitCode code = new LifecycleDemo()
        .run(
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            new DemoRunner.Options(false, true));

    assertThat(code).as(out + "\n" + err).isEqualTo(ExitCode.OK);
    assertThat(out.toString())
        .contains("automatic rollback")
        .contains("exit 6 (rolled back)")
        .contains("the pods after the upgrade: ended, started again")
        .contains("power cut in the middle of an upgrade")
        .contains("no operator command; noneops recovery gate: the interrupted upgrade")
        .contains("Finished noneops-recover.service")
        .contains("boot:      boot-recovery ROLLED_BACK")
        .contains("the pods after the reboot: started again")
        .contains("removed CNI bridge")
        .containsPattern(
            "count them after the teardown: nothing left\\n    => OK: .*as before the bootstrap")
        .contains("the host is left as it was")
        .containsPattern("SUCCESS: \\d+ steps, 0 failed");
    assertThat(Files.exists(Path.of("/opt/unbounded/node")))
        .as("nothing of the node on the real host")
        .isFalse();
  }
}
