package dev.noneops.acceptance.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.core.config.AgentConfigParser;
import dev.noneops.core.config.DownloadArtifact;
import dev.noneops.core.goalstate.RootFs;
import dev.noneops.core.goalstate.internal.GoalStateResolver;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.InstallException;
import dev.noneops.core.node.internal.task.TaskRunner;
import dev.noneops.core.node.internal.version.VersionInstaller;
import dev.noneops.hostfs.RealHost;
import dev.noneops.ports.host.HostInfo;
import dev.noneops.testkit.fixtures.artifacts.ArtifactRepository;
import dev.noneops.testkit.fixtures.artifacts.ArtifactServer;
import dev.noneops.testkit.fixtures.artifacts.ArtifactSet;
import dev.noneops.testkit.fixtures.artifacts.DebianPackages;
import dev.noneops.testkit.fixtures.artifacts.NodeArtifactBuilder;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.standins.StandInScripts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.slf4j.LoggerFactory;

/**
 * The real downloader and file system against the testkit's HTTP artifact server, which publishes
 * the checksum documents in the upstream sites' formats (runc's one {@code runc.sha256sum} listing
 * both architectures): every artifact is verified against its document, and one replaced on the
 * server is refused before any version directory exists.
 */
class RealDownloadVerificationTest {
  private static final RealHost HOST = RealHost.create();
  private static final ArtifactSet AMD64 = new ArtifactSet(
      "1.31.2",
      ArtifactSet.Runtime.standIn("2.0.4"),
      ArtifactSet.Runtime.standIn("1.1.12"),
      "1.5.1",
      "1.31.0",
      "1.11.3",
      "amd64",
      false);
  private static final ArtifactSet ARM64 = new ArtifactSet(
      "1.31.2",
      ArtifactSet.Runtime.standIn("2.0.4"),
      ArtifactSet.Runtime.standIn("1.1.12"),
      "1.5.1",
      "1.31.0",
      "1.11.3",
      "arm64",
      false);

  private static final HostInfo AMD64_HOST =
      new HostInfo("amd64", "6.1.0", "worker-1", List.of(), false, List.of());

  @TempDir
  Path temp;

  private ArtifactRepository repository;
  private ArtifactServer server;
  private Layout layout;
  private RootFs goal;

  @BeforeEach
  void serveBothArchitectures() throws Exception {
    repository = new ArtifactRepository(temp.resolve("repo"));
    NodeArtifactBuilder builder = new NodeArtifactBuilder(
        repository, new DebianPackages(temp.resolve("debian")), StandInScripts.ofThisJvm());
    builder.publish(ARM64);
    builder.publish(AMD64);
    server = ArtifactServer.serve(repository.root());
    layout = new Layout(temp.resolve("node"));
    byte[] config = ConfigJson.of("1.31.2")
        .withDownloadsFrom(server.uri().toString())
        .json()
        .getBytes(StandardCharsets.UTF_8);
    goal = GoalStateResolver.resolve(
            AgentConfigParser.parseAndValidate(config, "amd64"), AMD64_HOST, layout)
        .rootFs();
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  @Test
  void everyArtifactIsVerifiedAgainstItsPublishedChecksumDocument() throws IOException {
    installer().install(goal);

    assertThat(Files.exists(layout.manifest(goal.versionName()))).isTrue();
    assertThat(server.requests())
        .contains(
            "GET /containerd/v2.0.4/containerd-2.0.4-linux-amd64.tar.gz.sha256sum 200",
            "GET /runc/v1.1.12/runc.sha256sum 200",
            "GET /cni/v1.5.1/cni-plugins-linux-amd64-v1.5.1.tgz.sha256 200",
            "GET /crictl/v1.31.0/crictl-v1.31.0-linux-amd64.tar.gz.sha256 200",
            "GET /kubernetes/v1.31.2/bin/linux/amd64/kubelet.sha256 200",
            "GET /localdns/v1.11.3/coredns_1.11.3_linux_amd64.tgz.sha256 200");
    assertThat(Files.readString(repository.root().resolve("runc/v1.1.12/runc.sha256sum")))
        .contains("runc.amd64", "runc.arm64");
  }

  @Test
  void anArtifactAtASignedUrlIsVerifiedAgainstTheChecksumBesideItsPathWithTheQueryKept()
      throws IOException {
    String query = "X-Amz-Credential=AKIA%2F20261204&X-Amz-Signature=5ec12e7";
    server.requiringQuery(query);
    String templateQuery = query.replace("%", "%%");
    AgentConfig config = AgentConfigParser.parseAndValidate(
        ConfigJson.of("1.31.2")
            .withDownloadsFrom(server.uri().toString())
            .json()
            .getBytes(StandardCharsets.UTF_8),
        "amd64");
    String base = server.uri().toString();
    AgentConfig signed = config.withDownloads(new AgentConfig.Downloads(
        signedUrl(base + "/kubernetes/v%s/bin/linux/%s/%s?" + templateQuery),
        signedUrl(base + "/containerd/v%s/containerd-%s-linux-%s.tar.gz?" + templateQuery),
        signedUrl(base + "/runc/v%s/runc.%s?" + templateQuery),
        signedUrl(base + "/cni/v%s/cni-plugins-linux-%s-v%s.tgz?" + templateQuery),
        signedUrl(base + "/crictl/v%s/crictl-v%s-%s-%s.tar.gz?" + templateQuery),
        signedUrl(base + "/localdns/v%s/coredns_%s_linux_%s.tgz?" + templateQuery)));

    installer().install(GoalStateResolver.resolve(signed, AMD64_HOST, layout).rootFs());

    assertThat(server.requests())
        .contains(
            "GET /kubernetes/v1.31.2/bin/linux/amd64/kubelet.sha256 200",
            "GET /containerd/v2.0.4/containerd-2.0.4-linux-amd64.tar.gz.sha256sum 200",
            "GET /runc/v1.1.12/runc.sha256sum 200",
            "GET /cni/v1.5.1/cni-plugins-linux-amd64-v1.5.1.tgz.sha256 200",
            "GET /crictl/v1.31.0/crictl-v1.31.0-linux-amd64.tar.gz.sha256 200",
            "GET /localdns/v1.11.3/coredns_1.11.3_linux_amd64.tgz.sha256 200")
        .noneMatch(request -> request.endsWith(" 403"));
  }

  private static AgentConfig.Download signedUrl(String template) {
    return new AgentConfig.Download("", template, "");
  }

  @ParameterizedTest
  @CsvSource({
    "KUBERNETES, kubelet",
    "CONTAINERD, ''",
    "RUNC, ''",
    "CNI, ''",
    "CRICTL, ''",
    "LOCALDNS, ''"
  })
  void anArtifactReplacedOnTheServerIsRefusedAndNoVersionIsInstalled(
      DownloadArtifact kind, String binary) throws IOException {
    String version = switch (kind) {
      case KUBERNETES -> "1.31.2";
      case CONTAINERD -> "2.0.4";
      case RUNC -> "1.1.12";
      case CNI -> "1.5.1";
      case CRICTL -> "1.31.0";
      case LOCALDNS -> "1.11.3";
    };
    Path published = repository.path(kind, version, "amd64", binary);
    Files.write(
        published,
        NodeArtifactBuilder.tarGz(
            java.util.Map.of("tampered", "#!/bin/sh\n".getBytes(StandardCharsets.UTF_8))));

    InstallException e =
        catchThrowableOfType(InstallException.class, () -> installer().install(goal));

    assertThat(e.reason()).isEqualTo(InstallException.Reason.CHECKSUM_MISMATCH);
    assertThat(e)
        .hasMessageContaining(server.uri() + "/" + repository.root().relativize(published));
    assertThat(Files.exists(layout.versionDir(goal.versionName()))).isFalse();
    assertThat(Files.exists(layout.staging())).isFalse();
  }

  private VersionInstaller installer() {
    return new VersionInstaller(
        HOST.files(),
        HOST.downloads(),
        layout,
        new TaskRunner(
            LoggerFactory.getLogger(RealDownloadVerificationTest.class),
            e -> {},
            HOST.clock(),
            Runnable::run));
  }
}
