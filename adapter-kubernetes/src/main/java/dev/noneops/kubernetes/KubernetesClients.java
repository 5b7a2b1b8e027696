package dev.noneops.kubernetes;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/** The fabric8 client of a {@link KubernetesConnection}: nothing read from the host's kubeconfig. */
final class KubernetesClients {
  private KubernetesClients() {}

  static KubernetesClient of(KubernetesConnection connection) {
    ConfigBuilder config = new ConfigBuilder()
        .withAutoConfigure(false)
        .withMasterUrl(connection.apiServer().toString())
        .withRequestTimeout(millis(connection.requestTimeout()))
        .withConnectionTimeout(millis(connection.requestTimeout()))
        // Watches are resumed by this adapter, which re-reads first: fabric8 must not do it alone.
        .withWatchReconnectLimit(0)
        .withRequestRetryBackoffLimit(0);
    if (!connection.bearerToken().isEmpty()) {
      config.withOauthToken(connection.bearerToken());
    }
    if (!connection.caCertPem().isEmpty()) {
      config.withCaCertData(base64(connection.caCertPem()));
    }
    if (!connection.clientCertPem().isEmpty()) {
      config.withClientCertData(base64(connection.clientCertPem()));
      config.withClientKeyData(base64(connection.clientKeyPem()));
    }
    Config built = config.build();
    return new KubernetesClientBuilder().withConfig(built).build();
  }

  private static String base64(String pem) {
    return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.UTF_8));
  }

  private static int millis(Duration d) {
    return (int) Math.min(Integer.MAX_VALUE, d.toMillis());
  }
}
