package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.testkit.fs.FileTreeSnapshot;
import dev.noneops.testkit.gate.SimulatedCrash;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A teardown interrupted by a power loss at any crash point (the start of every mutating port
 * call, and every internal step of one) is finished by running it again after the reboot: no
 * trace of the node is left, and the foreign things on the host are byte-identical.
 */
class TeardownCrashTest {

  @Test
  void aResetCrashedAtEveryCrashPointFinishesWhenRunAgainAfterTheReboot() throws Exception {
    long point = 1;
    while (true) {
      SimNode node = SimNode.running();
      List<Path> foreign = addForeignThings(node);
      FileTreeSnapshot foreignBefore = snapshot(node, foreign);
      node.host.faults().crashAtCrashPoint(point);

      boolean crashed = false;
      try {
        reset(node.teardown());
      } catch (SimulatedCrash crash) {
        crashed = true;
      }
      if (!crashed) {
        node.host.faults().disarmCrash();
        assertFinished(node, foreign, foreignBefore, "the uninterrupted run");
        break;
      }

      node.host.crash();
      node.host.systemd().bootEnabledUnits();
      Teardown again = node.teardown();
      if (again.present()) {
        TeardownResult report = reset(again);
        assertThat(report.complete())
            .as("re-run after a crash at point %d: %s", point, report)
            .isTrue();
      }
      assertFinished(node, foreign, foreignBefore, "after a crash at point " + point);
      point++;
    }
    assertThat(point).as("crash points exercised").isGreaterThan(50);
  }

  private static TeardownResult reset(Teardown teardown) throws InterruptedException {
    return teardown.stop().plus(teardown.removeConfig()).plus(teardown.destroy());
  }

  private static List<Path> addForeignThings(SimNode node) throws Exception {
    Path nginx = node.paths.unit("nginx.service");
    node.fs()
        .seedFile(
            nginx,
            "[Service]\nExecStart=/usr/sbin/nginx\n[Install]\nWantedBy=multi-user.target\n",
            0644);
    node.host.installExecutable(Path.of("/usr/sbin/nginx"), "#!/bin/sh\n");
    node.systemd().enable(List.of("nginx.service"));
    node.systemd().start("nginx.service", Duration.ofMinutes(1));
    Path dropIn = node.paths.kubeletDropInDir().resolve("90-operator.conf");
    node.fs().seedFile(dropIn, "[Service]\nEnvironment=OPERATOR=1\n", 0644);
    node.fs()
        .seedFile(node.paths.containerdConfig(), "version = 2\n# tuned by the operator\n", 0644);
    Path data = Path.of("/srv/data");
    node.fs().seedFile(data.resolve("records.bin"), "precious records", 0600);
    return List.of(nginx, dropIn, node.paths.containerdConfig(), data, Path.of("/usr/sbin/nginx"));
  }

  private static FileTreeSnapshot snapshot(SimNode node, List<Path> paths)
      throws java.io.IOException {
    return node.fs()
        .snapshot(Path.of("/"), p -> paths.stream().anyMatch(f -> Path.of(p).startsWith(f)));
  }

  private static void assertFinished(
      SimNode node, List<Path> foreign, FileTreeSnapshot foreignBefore, String when)
      throws Exception {
    assertThat(node.teardown().present()).as("present %s", when).isFalse();
    List<Path> mustBeGone = node.ownedPaths().stream()
        .filter(p ->
            !p.equals(node.paths.kubeletDropInDir()) && !p.equals(node.paths.containerdConfig()))
        .toList();
    for (Path owned : mustBeGone) {
      assertThat(node.fs().lstat(owned)).as("%s gone %s", owned, when).isEmpty();
    }
    assertThat(node.fs().lstat(node.paths.kubeletDropInDir().resolve("10-noneops.conf")))
        .as("our drop-in gone %s", when)
        .isEmpty();
    assertThat(snapshot(node, foreign)).as("foreign things %s", when).isEqualTo(foreignBefore);
    assertThat(node.host.processes().cgroupExists("/kubepods.slice"))
        .as("pod cgroups %s", when)
        .isFalse();
  }
}
