package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.node.internal.teardown.ContainerdNamespaces;
import dev.noneops.testkit.SimulatedHost;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The namespaces of containerd's metadata database, read from files a real containerd wrote (see
 * the resources' README), with no containerd running.
 */
class ContainerdNamespacesTest {
  private static final Path DATA = Path.of("/var/lib/containerd");
  private final SimulatedHost host = SimulatedHost.create();

  @Test
  void theNodesNamespaceAloneIsListedWithWhatItHolds() throws Exception {
    seed(resource("meta-k8s.io.db"));

    assertThat(namespaces().list()).containsExactly(Map.entry("k8s.io", "1 snapshots, 1 leases"));
  }

  @Test
  void dockersNamespacesBesideTheNodesAreListed() throws Exception {
    seed(resource("meta-k8s.io-moby-plugins.moby.db"));

    assertThat(namespaces().list())
        .containsExactly(
            Map.entry("k8s.io", "1 snapshots, 1 leases"),
            Map.entry("moby", "1 snapshots, 1 leases"),
            Map.entry("plugins.moby", "only its name and labels"));
  }

  @Test
  void noDatabaseIsNoNamespace() throws Exception {
    assertThat(namespaces().list()).isEmpty();
  }

  @Test
  void aDamagedOrCutDatabaseIsAnErrorNeverAnEmptyList() throws Exception {
    byte[] db = resource("meta-k8s.io-moby-plugins.moby.db");
    seed(Arrays.copyOf(db, 8192));
    assertThatThrownBy(() -> namespaces().list())
        .isInstanceOf(IOException.class)
        .hasMessageContaining("no containerd metadata this teardown can read");

    seed("not a database at all".getBytes());
    assertThatThrownBy(() -> namespaces().list()).hasMessageContaining("no valid meta page");
  }

  @Test
  void aSymlinkAtTheDatabaseIsNotFollowed() throws Exception {
    host.fs().seedDirectory(DATA.resolve("io.containerd.metadata.v1.bolt"), 0700);
    host.fs().seedSymlink(namespaces().database(), "/etc/passwd");

    assertThatThrownBy(() -> namespaces().list()).hasMessageContaining("not a regular file");
  }

  private ContainerdNamespaces namespaces() {
    return new ContainerdNamespaces(host.ports().files(), DATA);
  }

  private void seed(byte[] content) throws IOException {
    host.fs().seedDirectory(DATA.resolve("io.containerd.metadata.v1.bolt"), 0700);
    host.fs().seedFile(namespaces().database(), content, 0644);
  }

  static byte[] resource(String name) throws IOException {
    try (InputStream in =
        ContainerdNamespacesTest.class.getResourceAsStream("/containerd/" + name)) {
      return in.readAllBytes();
    }
  }
}
