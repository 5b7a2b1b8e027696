package dev.noneops.acceptance.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.noneops.core.config.UrlRedaction;
import dev.noneops.core.goalstate.Artifact;
import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.node.InstallException;
import dev.noneops.testkit.download.SimArtifactRepository;
import dev.noneops.testkit.fixtures.artifacts.TarGz;
import dev.noneops.testkit.fixtures.node.SimNode;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A mirror whose URLs carry a signature in their query: the published checksum is looked for
 * beside the artifact's path with the query kept, the configuration may name the checksum's own
 * signed URL ({@code Downloads.<X>.SHA256URL}), and a refusal says which key to set.
 */
class SignedMirrorScenarioTest {
  private static final String QUERY = "?X-Amz-Credential=AKIA%2F20261204&X-Amz-Signature=5ec12e7";
  /** The query as a URL template writes it: its {@code %} doubled. */
  private static final String TEMPLATE_QUERY = QUERY.replace("%", "%%");

  private static final String CONTAINERD =
      "https://bucket.example.com/containerd/v2.0.4/containerd-2.0.4-linux-amd64.tar.gz";
  private static final String KUBELET =
      "https://bucket.example.com/k8s/v1.31.4/bin/linux/amd64/kubelet";
  private static final byte[] MIRRORED_CONTAINERD = TarGz.builder()
      .file("bin/containerd", "#!/bin/sh\n# containerd from the signed mirror\n", 0755)
      .file("bin/containerd-shim-runc-v2", "#!/bin/sh\n# shim from the signed mirror\n", 0755)
      .build();

  private final SimNode lab = new SimNode();

  @Test
  void aMirrorWhoseTokenCoversEveryFileServesTheChecksumBesideTheArtifactsPath()
      throws IOException {
    MachineGoalState goal = lab.goal(SimNode.configWithDownloads("{"
        + "\"Kubernetes\": {\"URL\": \"https://bucket.example.com/k8s/v%s/bin/linux/%s/%s"
        + TEMPLATE_QUERY
        + "\"}, \"Containerd\": {\"URL\": "
        + "\"https://bucket.example.com/containerd/v%s/containerd-%s-linux-%s.tar.gz"
        + TEMPLATE_QUERY
        + "\"}}"));
    lab.publish(goal);
    publishAsTheMirrorDoes(goal);
    forgetTheChecksumOf(goal, "kubelet");
    lab.host
        .artifacts()
        .publishWithSha256(URI.create(KUBELET + QUERY), "#!/bin/sh\n# kubelet\n".getBytes());

    lab.node(goal).provision();

    assertThat(lab.host.artifacts().bytesServed(URI.create(CONTAINERD + ".sha256sum" + QUERY)))
        .isPositive();
    assertThat(lab.host.artifacts().bytesServed(URI.create(KUBELET + ".sha256" + QUERY)))
        .isPositive();
    assertThat(installedContainerd(goal)).contains("containerd from the signed mirror");
  }

  @Test
  void aChecksumTheDerivedUrlCannotFetchIsRefusedNamingTheKeysThatVerifyIt() {
    MachineGoalState goal = lab.goal(SimNode.configWithDownloads("{\"Containerd\": {\"URL\": "
        + "\"https://bucket.example.com/containerd/v%s/containerd-%s-linux-%s.tar.gz"
        + TEMPLATE_QUERY
        + "\"}}"));
    lab.publish(goal);
    publishAsTheMirrorDoes(goal);
    // The signature covers the artifact's path only: the mirror refuses it for any other.
    lab.host.artifacts().respondWithStatus(URI.create(CONTAINERD + ".sha256sum" + QUERY), 403);

    InstallException e =
        catchThrowableOfType(InstallException.class, () -> lab.node(goal).provision());

    assertThat(e.reason()).isEqualTo(InstallException.Reason.CHECKSUM_UNAVAILABLE);
    assertThat(e.getMessage())
        .doesNotContain("\n")
        .contains(CONTAINERD + ".sha256sum" + QUERY)
        .contains("Downloads.Containerd.SHA256URL")
        .contains("(Downloads.Containerd.SHA256)");
    assertThat(UrlRedaction.redact(e.getMessage()))
        .doesNotContain("5ec12e7")
        .contains(CONTAINERD
            + ".sha256sum?X-Amz-Credential=REDACTED&X-Amz-Signature=REDACTED could not be fetched");
  }

  @Test
  void theChecksumsOwnSignedUrlVerifiesTheArtifact() throws IOException {
    String checksumUrl = CONTAINERD + ".sha256sum?X-Amz-Signature=0therf0rthesum";
    MachineGoalState goal = lab.goal(SimNode.configWithDownloads("{\"Containerd\": {"
        + "\"URL\": \"https://bucket.example.com/containerd/v%s/containerd-%s-linux-%s.tar.gz"
        + TEMPLATE_QUERY + "\", \"SHA256URL\": "
        + "\"https://bucket.example.com/containerd/v%s/containerd-%s-linux-%s.tar.gz.sha256sum"
        + "?X-Amz-Signature=0therf0rthesum\"}}"));
    lab.publish(goal);
    publishAsTheMirrorDoes(goal);
    lab.host.artifacts().respondWithStatus(URI.create(CONTAINERD + ".sha256sum" + QUERY), 403);
    lab.host.artifacts().publish(URI.create(checksumUrl), sha256sum(MIRRORED_CONTAINERD));

    lab.node(goal).provision();

    assertThat(lab.host.artifacts().bytesServed(URI.create(checksumUrl))).isPositive();
    assertThat(installedContainerd(goal)).contains("containerd from the signed mirror");
  }

  /**
   * containerd and its {@code .sha256sum} where the mirror serves them: the path, then the query;
   * nothing where the goal looks for containerd's checksum.
   */
  private void publishAsTheMirrorDoes(MachineGoalState goal) {
    forgetTheChecksumOf(goal, "containerd");
    lab.host.artifacts().publish(URI.create(CONTAINERD + QUERY), MIRRORED_CONTAINERD);
    lab.host
        .artifacts()
        .publish(URI.create(CONTAINERD + ".sha256sum" + QUERY), sha256sum(MIRRORED_CONTAINERD));
  }

  /** Nothing where the goal looks for the checksum of {@code artifact}. */
  private void forgetTheChecksumOf(MachineGoalState goal, String artifact) {
    for (Artifact a : goal.rootFs().artifacts()) {
      if (a.name().equals(artifact) && a.checksum() instanceof Artifact.Checksum.Published p) {
        lab.host.artifacts().remove(p.url());
      }
    }
  }

  private static byte[] sha256sum(byte[] content) {
    return (SimArtifactRepository.sha256Hex(content) + "  containerd-2.0.4-linux-amd64.tar.gz\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  private String installedContainerd(MachineGoalState goal) throws IOException {
    return new String(
        lab.host
            .ports()
            .files()
            .read(lab.layout.binDir(goal.rootFs().versionName()).resolve("containerd")),
        StandardCharsets.UTF_8);
  }
}
