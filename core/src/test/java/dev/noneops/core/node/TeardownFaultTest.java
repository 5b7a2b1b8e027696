package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.node.TeardownResult.Kept;
import dev.noneops.ports.Errno;
import dev.noneops.ports.systemd.SystemdException;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import dev.noneops.testkit.gate.Calls;
import dev.noneops.testkit.gate.FaultRule;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Host errors during a teardown: each is reported with what was being done to what, the rest of
 * the teardown goes on where that is safe, nothing is deleted without the mount table, and a
 * re-run once the error is gone finishes.
 */
class TeardownFaultTest {

  private static TeardownResult reset(Teardown teardown) throws InterruptedException {
    return teardown.stop().plus(teardown.removeConfig()).plus(teardown.destroy());
  }

  @Test
  void withoutAReadableMountTableNoDataDirectoryIsTouched() throws Exception {
    SimNode node = SimNode.running();
    node.host.faults().add(FaultRule.when(Calls.to("mounts.mounts")).fail(Errno.EIO));
    Path pods = node.paths.kubeletDir().resolve("pods");
    FileTreeSnapshot kubelet = node.host.snapshot(pods);
    FileTreeSnapshot containerd = node.host.snapshot(node.paths.containerdStateDir());
    Teardown teardown = node.teardown();

    TeardownResult report = reset(teardown);

    assertThat(node.host.snapshot(pods)).isEqualTo(kubelet);
    assertThat(node.host.snapshot(node.paths.containerdStateDir())).isEqualTo(containerd);
    assertThat(report.kept(KeepReason.FAILED))
        .extracting(Kept::subject)
        .contains(node.paths.kubeletDir().toString());
    assertThat(report.kept(KeepReason.FAILED))
        .allSatisfy(k -> assertThat(k.detail()).contains("mount table"));
    assertThat(teardown.present()).isTrue();

    node.host.faults().clear();
    assertThat(reset(teardown).complete()).isTrue();
    assertThat(teardown.present()).isFalse();
  }

  @Test
  void aFileThatCannotBeDeletedIsNamedAndItsDirectoriesKeptUntilARerun() throws Exception {
    SimNode node = SimNode.running();
    Path token = node.podDir("pod-a").resolve("volumes/kubernetes.io~projected/token/token");
    node.host
        .faults()
        .add(FaultRule.when(Calls.to("files.delete").and(Calls.withArg(token.toString())))
            .fail(Errno.EIO));
    Teardown teardown = node.teardown();

    TeardownResult report = reset(teardown);

    assertThat(report.kept(KeepReason.FAILED)).anySatisfy(k -> {
      assertThat(k.subject()).isEqualTo(token.toString());
      assertThat(k.detail()).contains("delete").contains("EIO");
    });
    assertThat(node.fs().lstat(token)).isPresent();
    assertThat(node.fs().lstat(node.podDir("pod-b"))).isEmpty();
    assertThat(teardown.present()).isTrue();

    node.host.faults().clear();
    assertThat(teardown.destroy().complete()).isTrue();
    assertThat(teardown.present()).isFalse();
  }

  @Test
  void aUnitThatSystemdRefusesToStopIsNamedAndTheRestGoesOn() throws Exception {
    SimNode node = SimNode.running();
    node.host
        .faults()
        .add(FaultRule.when(call -> call.is("systemd.stop", "kubelet.service"))
            .failWith(call -> new SystemdException(
                SystemdException.Kind.ACCESS_DENIED, "kubelet.service", "Access denied")));
    Teardown teardown = node.teardown();

    TeardownResult stop = teardown.stop();

    assertThat(stop.kept(KeepReason.FAILED)).anySatisfy(k -> {
      assertThat(k.subject()).isEqualTo("kubelet.service");
      assertThat(k.detail()).contains("stop").contains("Access denied");
    });
    assertThat(node.host.systemd().peek("containerd.service").isActive()).isFalse();
    assertThat(node.host.systemd().peek("kubelet.service").isActive()).isTrue();

    node.host.faults().clear();
    assertThat(reset(teardown).complete()).isTrue();
    assertThat(teardown.present()).isFalse();
  }

  @Test
  void whenSystemdCannotDisableAUnitItsEnablementLinkIsStillRemovedWithTheFile() throws Exception {
    SimNode node = SimNode.running();
    node.host
        .faults()
        .add(FaultRule.when(Calls.to("systemd.disable"))
            .failWith(call -> new SystemdException(
                SystemdException.Kind.OTHER, "kubelet.service", "Failed to disable unit")));
    Path wants = node.paths.systemdDir().resolve("multi-user.target.wants");
    Path foreignLink = wants.resolve("nginx.service");
    node.fs().seedSymlink(foreignLink, "/usr/lib/systemd/system/nginx.service");

    TeardownResult report = reset(node.teardown());

    assertThat(report.kept(KeepReason.FAILED))
        .extracting(Kept::subject)
        .contains("kubelet.service", "containerd.service", "localdns.service");
    for (String unit : SimNode.UNITS) {
      assertThat(node.fs().lstat(wants.resolve(unit)))
          .as("%s enablement link", unit)
          .isEmpty();
    }
    assertThat(node.fs().lstat(foreignLink))
        .as("someone else's enablement link")
        .isPresent();
  }
}
