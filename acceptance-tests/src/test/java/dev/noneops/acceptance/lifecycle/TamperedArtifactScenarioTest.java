package dev.noneops.acceptance.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.goalstate.Artifact;
import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.node.InstallException;
import dev.noneops.testkit.fixtures.artifacts.TarGz;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every artifact is checked against the checksum its project publishes beside it: a binary or a
 * tarball replaced on the server (its published checksum left as it was) is refused with its URL
 * named, before anything of the version is installed or activated.
 */
class TamperedArtifactScenarioTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "kubelet",
        "kubectl",
        "kube-proxy",
        "containerd",
        "runc",
        "cni-plugins",
        "crictl",
        "coredns"
      })
  void aTamperedArtifactIsRefusedAndNothingIsInstalledOrActivated(String name) {
    SimNode lab = new SimNode();
    MachineGoalState goal = lab.goal(SimNode.config());
    lab.publish(goal);
    Artifact artifact = goal.rootFs().artifacts().stream()
        .filter(a -> a.name().equals(name))
        .findFirst()
        .orElseThrow();
    lab.host.artifacts().publish(artifact.url(), tampered(artifact));
    FileTreeSnapshot before = lab.host.snapshot();

    assertThatThrownBy(() -> lab.node(goal).provision())
        .hasMessageContaining(artifact.url().toString())
        .hasMessageContaining("sha256")
        .satisfies(e -> assertThat(rootInstallFailure(e).reason())
            .isEqualTo(InstallException.Reason.CHECKSUM_MISMATCH));

    String version = goal.rootFs().versionName();
    assertThat(lab.host.snapshot().paths())
        .as("no version, no staging, no current, no unit")
        .doesNotContain(
            lab.layout.versionDir(version).toString(),
            lab.layout.staging().toString(),
            lab.layout.current().toString(),
            "/etc/systemd/system/kubelet.service",
            "/etc/systemd/system/containerd.service");
    assertThat(outsideTheLayout(lab.host.snapshot(), lab)).isEqualTo(outsideTheLayout(before, lab));
    assertThat(SimNode.STACK).noneMatch(unit -> lab.host.systemd().peek(unit).isActive());
  }

  /** Content the project never published under that URL, in the artifact's own shape. */
  private static byte[] tampered(Artifact artifact) {
    byte[] script = "#!/bin/sh\necho tampered\n".getBytes(StandardCharsets.UTF_8);
    if (artifact.install() instanceof Artifact.Install.Tarball t) {
      List<String> names = t.only().isEmpty() ? List.of(artifact.name()) : t.only();
      TarGz.Builder tar = TarGz.builder();
      names.forEach(n -> tar.file(t.entryPrefix() + n, script, 0755));
      return tar.build();
    }
    return script;
  }

  private static InstallException rootInstallFailure(Throwable e) {
    Throwable t = e;
    while (!(t instanceof InstallException) && t.getCause() != null) {
      t = t.getCause();
    }
    return (InstallException) t;
  }

  /** Everything but the layout and the directories above it, which the installer creates first. */
  private static List<String> outsideTheLayout(FileTreeSnapshot snapshot, SimNode lab) {
    String root = lab.layout.root().toString();
    return snapshot.entries().stream()
        .filter(e -> !e.path().equals(root)
            && !e.path().startsWith(root + "/")
            && !root.startsWith(e.path() + "/"))
        .map(Object::toString)
        .toList();
  }
}
