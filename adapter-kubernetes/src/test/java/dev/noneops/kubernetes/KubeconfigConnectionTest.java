package dev.noneops.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The connections of the kubeconfigs kubelet has: the bootstrap one and its rotated client one. */
class KubeconfigConnectionTest {
  private static final KubernetesConnection DEFAULTS =
      KubernetesConnection.to(URI.create("https://unset.invalid"));
  private static final Map<Path, String> FILES = Map.of(
      Path.of("/etc/kubernetes/pki/ca.crt"), "CA PEM\n",
      Path.of("/var/lib/kubelet/pki/kubelet-client-current.pem"), "CERT AND KEY PEM\n");

  @Test
  void theBootstrapKubeconfigGivesTheTokenAndTheCaFile() throws IOException {
    KubernetesConnection c = read("/var/lib/kubelet/bootstrap-kubeconfig", """
        apiVersion: v1
        kind: Config
        clusters:
        - name: cluster
          cluster:
            certificate-authority: /etc/kubernetes/pki/ca.crt
            server: https://10.0.0.1:6443
        contexts:
        - name: default
          context: {cluster: cluster, user: kubelet}
        current-context: default
        users:
        - name: kubelet
          user: {token: abcdef.0123456789abcdef}
        """);

    assertThat(c.apiServer()).isEqualTo(URI.create("https://10.0.0.1:6443"));
    assertThat(c.bearerToken()).isEqualTo("abcdef.0123456789abcdef");
    assertThat(c.caCertPem()).isEqualTo("CA PEM\n");
    assertThat(c.toString()).doesNotContain("0123456789abcdef");
  }

  @Test
  void kubeletsClientKubeconfigGivesTheRotatedCertificateAndKey() throws IOException {
    KubernetesConnection c = read("/var/lib/kubelet/kubeconfig", """
        apiVersion: v1
        kind: Config
        clusters:
        - name: default-cluster
          cluster:
            certificate-authority-data: Q0EgUEVNCg==
            server: https://10.0.0.1:6443
        contexts:
        - name: default-context
          context: {cluster: default-cluster, user: default-auth, namespace: default}
        current-context: default-context
        users:
        - name: default-auth
          user:
            client-certificate: /var/lib/kubelet/pki/kubelet-client-current.pem
            client-key: /var/lib/kubelet/pki/kubelet-client-current.pem
        """);

    assertThat(c.clientCertPem()).isEqualTo("CERT AND KEY PEM\n");
    assertThat(c.clientKeyPem()).isEqualTo("CERT AND KEY PEM\n");
    assertThat(c.caCertPem()).isEqualTo("CA PEM\n");
    assertThat(c.bearerToken()).isEmpty();
  }

  @Test
  void aUserWithACredentialPluginIsRefused() {
    assertThatThrownBy(() -> read("/var/lib/kubelet/kubeconfig", """
            apiVersion: v1
            kind: Config
            clusters:
            - {name: c, cluster: {server: "https://10.0.0.1:6443"}}
            contexts:
            - {name: d, context: {cluster: c, user: u}}
            current-context: d
            users:
            - name: u
              user:
                exec: {apiVersion: client.authentication.k8s.io/v1, command: /usr/bin/get-token}
            """))
        .isInstanceOf(KubeconfigConnection.InvalidKubeconfigException.class)
        .hasMessageContaining("credential plugin");
  }

  @Test
  void aContextItDoesNotDefineIsRefused() {
    assertThatThrownBy(() -> read("/var/lib/kubelet/kubeconfig", """
            apiVersion: v1
            kind: Config
            current-context: missing
            """))
        .isInstanceOf(KubeconfigConnection.InvalidKubeconfigException.class)
        .hasMessageContaining("missing");
  }

  private static KubernetesConnection read(String path, String yaml) throws IOException {
    return KubeconfigConnection.read(
        Path.of(path),
        yaml.getBytes(StandardCharsets.UTF_8),
        p -> {
          String content = FILES.get(p);
          if (content == null) {
            throw new NoSuchFileException(p.toString());
          }
          return content.getBytes(StandardCharsets.UTF_8);
        },
        DEFAULTS);
  }
}
