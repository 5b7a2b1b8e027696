package dev.noneops.cli.wiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.hostfs.RealHost;
import dev.noneops.ports.machine.MachineResource;
import dev.noneops.ports.machine.MachineResourceException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemon's credentials: the bootstrap kubeconfig before kubelet wrote its own, kubelet's own
 * after, the clients built again when kubelet rotates its certificate, and a clear refusal when
 * there is neither file.
 */
class KubeletKubeconfigClusterTest {
  @TempDir
  Path root;

  private HostPaths paths() {
    return new HostPaths(root, root.resolve("etc/systemd/system"));
  }

  @Test
  void theClientsFollowTheKubeconfigKubeletHasNow() throws IOException {
    HostPaths paths = paths();
    try (KubeletKubeconfigCluster cluster =
        new KubeletKubeconfigCluster(RealHost.create().files(), paths)) {
      write(paths.bootstrapKubeconfig(), kubeconfig("user: {token: abcdef.0123456789abcdef}"));
      MachineResource bootstrap = cluster.machines();
      assertThat(cluster.machines()).as("nothing changed: the same clients").isSameAs(bootstrap);

      Path credential = paths.host("/var/lib/kubelet/credential");
      write(credential, "first-token\n");
      write(paths.kubeconfig(), kubeconfig("user: {tokenFile: " + credential + "}"));
      MachineResource joined = cluster.machines();
      assertThat(joined).as("kubelet's own credentials once it has them").isNotSameAs(bootstrap);

      write(credential, "rotated-token\n");
      assertThat(cluster.machines()).as("a rotated credential").isNotSameAs(joined);
    }
  }

  @Test
  void aCertificateTheClientCannotLoadIsARefusalNotACrash() throws IOException {
    HostPaths paths = paths();
    Path pem = paths.host("/var/lib/kubelet/pki/kubelet-client-current.pem");
    write(pem, "not a certificate\n");
    write(
        paths.kubeconfig(),
        kubeconfig("user:\n    client-certificate: " + pem + "\n    client-key: " + pem));
    try (KubeletKubeconfigCluster cluster =
        new KubeletKubeconfigCluster(RealHost.create().files(), paths)) {
      MachineResource machines = cluster.machines();
      assertThatThrownBy(() -> machines.get("worker-1"))
          .isInstanceOfSatisfying(
              MachineResourceException.class,
              e -> assertThat(e.kind()).isEqualTo(MachineResourceException.Kind.FORBIDDEN))
          .hasMessageContaining("cannot be built");
    }
  }

  @Test
  void withoutEitherKubeconfigEveryCallIsRefusedWithTheReason() {
    try (KubeletKubeconfigCluster cluster =
        new KubeletKubeconfigCluster(RealHost.create().files(), paths())) {
      MachineResource machines = cluster.machines();
      assertThatThrownBy(() -> machines.get("worker-1"))
          .isInstanceOfSatisfying(
              MachineResourceException.class,
              e -> assertThat(e.kind()).isEqualTo(MachineResourceException.Kind.FORBIDDEN))
          .hasMessageContaining("bootstrap-kubeconfig");
    }
  }

  private static String kubeconfig(String user) {
    return "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n"
        + "    server: https://10.0.0.1:6443\ncontexts:\n- name: d\n  context: {cluster: c, user: u}\n"
        + "current-context: d\nusers:\n- name: u\n  " + user + "\n";
  }

  private static void write(Path path, String content) throws IOException {
    Files.createDirectories(path.getParent());
    Files.writeString(path, content, StandardCharsets.UTF_8);
  }
}
