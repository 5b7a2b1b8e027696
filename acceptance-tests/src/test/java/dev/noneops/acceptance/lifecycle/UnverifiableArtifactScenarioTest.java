package dev.noneops.acceptance.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.goalstate.Artifact;
import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.testkit.download.SimArtifactRepository;
import dev.noneops.testkit.fixtures.artifacts.TarGz;
import dev.noneops.testkit.fixtures.node.SimNode;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An artifact whose checksum cannot be had is refused with its URL named, unless the configuration
 * pins its digest ({@code Downloads.<X>.SHA256}) or explicitly allows it unverified
 * ({@code Downloads.<X>.AllowUnverified}).
 */
class UnverifiableArtifactScenarioTest {
  private static final String CONTAINERD_URL =
      "https://github.com/containerd/containerd/releases/download/v2.0.4/containerd-2.0.4-linux-amd64.tar.gz";
  private static final byte[] MIRRORED_CONTAINERD = TarGz.builder()
      .file("bin/containerd", "#!/bin/sh\n# containerd from the mirror\n", 0755)
      .file("bin/containerd-shim-runc-v2", "#!/bin/sh\n# shim from the mirror\n", 0755)
      .build();

  private final SimNode lab = new SimNode();

  /** Each artifact with the checksum document its project publishes beside it. */
  @ParameterizedTest
  @CsvSource({
    "kubelet, https://dl.k8s.io/v1.31.4/bin/linux/amd64/kubelet.sha256",
    "containerd, " + CONTAINERD_URL + ".sha256sum",
    "runc, https://github.com/opencontainers/runc/releases/download/v1.1.12/runc.sha256sum",
    "cni-plugins, https://github.com/containernetworking/plugins/releases/download/v1.5.1/cni-plugins-linux-amd64-v1.5.1.tgz.sha256",
    "crictl, https://github.com/kubernetes-sigs/cri-tools/releases/download/v1.31.0/crictl-v1.31.0-linux-amd64.tar.gz.sha256",
    "coredns, https://github.com/coredns/coredns/releases/download/v1.11.3/coredns_1.11.3_linux_amd64.tgz.sha256"
  })
  void anArtifactWhosePublishedChecksumIsMissingIsRefusedWithItsUrlNamed(
      String name, String checksumUrl) {
    MachineGoalState goal = lab.goal(SimNode.config());
    lab.publish(goal);
    lab.host.artifacts().remove(URI.create(checksumUrl));

    assertThatThrownBy(() -> lab.node(goal).provision())
        .hasMessageContaining(
            "artifact " + name + " from " + artifact(goal, name).url() + " cannot be verified")
        .hasMessageContaining(checksumUrl);
    assertNothingInstalled(goal);
  }

  @Test
  void anArtifactExplicitlyAllowedUnverifiedIsInstalledWithoutItsChecksum() throws IOException {
    MachineGoalState goal =
        lab.goal(SimNode.configWithDownloads("{\"Containerd\": {\"AllowUnverified\": true}}"));
    lab.publish(goal);
    lab.host.artifacts().remove(URI.create(CONTAINERD_URL + ".sha256sum"));

    lab.node(goal).provision();

    assertThat(lab.host
            .ports()
            .files()
            .exists(lab.layout.binDir(goal.rootFs().versionName()).resolve("containerd")))
        .isTrue();
  }

  @Test
  void aPublishedChecksumIsStillCheckedWhenUnverifiedIsAllowed() {
    MachineGoalState goal =
        lab.goal(SimNode.configWithDownloads("{\"Containerd\": {\"AllowUnverified\": true}}"));
    lab.publish(goal);
    lab.host.artifacts().publish(URI.create(CONTAINERD_URL), MIRRORED_CONTAINERD);

    assertThatThrownBy(() -> lab.node(goal).provision())
        .hasMessageContaining(CONTAINERD_URL)
        .hasMessageContaining("sha256");
    assertNothingInstalled(goal);
  }

  @Test
  void aPinnedDigestVerifiesAnArtifactFromAMirrorThatPublishesNoChecksums() throws IOException {
    String url = "https://mirror.example.com/containerd/v2.0.4/containerd-2.0.4-linux-amd64.tar.gz";
    MachineGoalState goal = lab.goal(SimNode.configWithDownloads(
        "{\"Containerd\": {\"BaseURL\": \"https://mirror.example.com/containerd\", "
            + "\"SHA256\": \"" + SimArtifactRepository.sha256Hex(MIRRORED_CONTAINERD) + "\"}}"));
    lab.publish(goal);
    lab.host.artifacts().publish(URI.create(url), MIRRORED_CONTAINERD);
    lab.host.artifacts().remove(URI.create(url + ".sha256sum"));

    lab.node(goal).provision();

    assertThat(new String(
            lab.host
                .ports()
                .files()
                .read(lab.layout.binDir(goal.rootFs().versionName()).resolve("containerd")),
            StandardCharsets.UTF_8))
        .contains("containerd from the mirror");
  }

  @Test
  void anArtifactThatDoesNotMatchItsPinnedDigestIsRefused() {
    AgentConfig config =
        SimNode.configWithDownloads("{\"Containerd\": {\"SHA256\": \"" + "ab".repeat(32) + "\"}}");
    MachineGoalState goal = lab.goal(config);
    lab.publish(goal);

    assertThatThrownBy(() -> lab.node(goal).provision())
        .hasMessageContaining(CONTAINERD_URL)
        .hasMessageContaining("sha256")
        .hasMessageContaining("ab".repeat(32));
    assertNothingInstalled(goal);
  }

  private static Artifact artifact(MachineGoalState goal, String name) {
    return goal.rootFs().artifacts().stream()
        .filter(a -> a.name().equals(name))
        .findFirst()
        .orElseThrow();
  }

  private void assertNothingInstalled(MachineGoalState goal) {
    assertThat(lab.host.snapshot().paths())
        .doesNotContain(
            lab.layout.versionDir(goal.rootFs().versionName()).toString(),
            lab.layout.staging().toString(),
            lab.layout.current().toString(),
            "/etc/systemd/system/kubelet.service");
  }
}
