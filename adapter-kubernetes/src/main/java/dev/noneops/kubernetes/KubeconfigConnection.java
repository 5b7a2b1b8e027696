package dev.noneops.kubernetes;

import io.fabric8.kubernetes.api.model.AuthInfo;
import io.fabric8.kubernetes.api.model.Cluster;
import io.fabric8.kubernetes.api.model.Config;
import io.fabric8.kubernetes.api.model.Context;
import io.fabric8.kubernetes.api.model.NamedAuthInfo;
import io.fabric8.kubernetes.api.model.NamedCluster;
import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;

/**
 * A {@link KubernetesConnection} from a kubeconfig: the current context's cluster (its server and
 * CA) and user (a token, a token file, or a client certificate and key, inline or in files). The
 * files a kubeconfig names are read through the caller ({@link FileReader}), relative paths from
 * the kubeconfig's own directory, so the node's daemon reads them through its host port. What kubelet
 * writes is covered: the bootstrap kubeconfig (a bootstrap token) and the kubeconfig of the
 * client certificate it rotates ({@code /var/lib/kubelet/pki/kubelet-client-current.pem}, which
 * holds the certificate and the key). A user with an exec plugin or an auth provider is refused:
 * the agent does not run credential plugins.
 */
public final class KubeconfigConnection {
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  /** Reads a file a kubeconfig names. */
  @FunctionalInterface
  public interface FileReader {
    byte[] read(Path path) throws IOException;
  }

  private KubeconfigConnection() {}

  /**
   * The connection of the kubeconfig at {@code path}, whose content is {@code content}, with the
   * other settings of {@code defaults}.
   *
   * @throws InvalidKubeconfigException when it has no current context, names what it does not
   *     define, or needs what the agent does not run
   * @throws IOException when a file it names cannot be read
   */
  public static KubernetesConnection read(
      Path path, byte[] content, FileReader files, KubernetesConnection defaults)
      throws IOException {
    Config config;
    try {
      config = YAML.unmarshal(new String(content, StandardCharsets.UTF_8), Config.class);
    } catch (RuntimeException e) {
      throw new InvalidKubeconfigException(path + " is not a kubeconfig: " + e.getMessage(), e);
    }
    if (config == null) {
      throw new InvalidKubeconfigException(path + " is empty", null);
    }
    Context context = named(
        config.getContexts(),
        NamedContext::getName,
        NamedContext::getContext,
        config.getCurrentContext(),
        "context",
        path);
    Cluster cluster = named(
        config.getClusters(),
        NamedCluster::getName,
        NamedCluster::getCluster,
        context.getCluster(),
        "cluster",
        path);
    AuthInfo user = named(
        config.getUsers(),
        NamedAuthInfo::getName,
        NamedAuthInfo::getUser,
        context.getUser(),
        "user",
        path);
    if (cluster.getServer() == null || cluster.getServer().isEmpty()) {
      throw new InvalidKubeconfigException(
          path + ": cluster " + context.getCluster() + " has no server", null);
    }
    Path dir = path.toAbsolutePath().getParent();
    KubernetesConnection connection = new KubernetesConnection(
        URI.create(cluster.getServer()),
        "",
        "",
        "",
        pem(cluster.getCertificateAuthorityData(), cluster.getCertificateAuthority(), dir, files),
        defaults.requestTimeout(),
        defaults.resyncPeriod(),
        defaults.watchRetryDelay());
    if (user.getExec() != null || user.getAuthProvider() != null) {
      throw new InvalidKubeconfigException(
          path + ": user " + context.getUser()
              + " needs a credential plugin, which the agent does not run",
          null);
    }
    if (user.getToken() != null && !user.getToken().isEmpty()) {
      return connection.withBearerToken(user.getToken());
    }
    if (user.getTokenFile() != null && !user.getTokenFile().isEmpty()) {
      return connection.withBearerToken(
          new String(files.read(dir.resolve(user.getTokenFile())), StandardCharsets.UTF_8).trim());
    }
    String cert = pem(user.getClientCertificateData(), user.getClientCertificate(), dir, files);
    String key = pem(user.getClientKeyData(), user.getClientKey(), dir, files);
    if (!cert.isEmpty() && !key.isEmpty()) {
      return connection.withClientCertificate(cert, key);
    }
    throw new InvalidKubeconfigException(
        path + ": user " + context.getUser() + " has no token and no client certificate", null);
  }

  private static String pem(String data, String file, Path dir, FileReader files)
      throws IOException {
    if (data != null && !data.isEmpty()) {
      return new String(Base64.getDecoder().decode(data.trim()), StandardCharsets.UTF_8);
    }
    if (file != null && !file.isEmpty()) {
      return new String(files.read(dir.resolve(file)), StandardCharsets.UTF_8);
    }
    return "";
  }

  private static <N, T> T named(
      List<N> entries,
      Function<N, String> name,
      Function<N, T> value,
      String wanted,
      String what,
      Path path)
      throws InvalidKubeconfigException {
    if (wanted == null || wanted.isEmpty()) {
      throw new InvalidKubeconfigException(path + " names no " + what, null);
    }
    if (entries != null) {
      for (N entry : entries) {
        if (wanted.equals(name.apply(entry)) && value.apply(entry) != null) {
          return value.apply(entry);
        }
      }
    }
    throw new InvalidKubeconfigException(
        path + " names " + what + " " + wanted + ", which it does not define", null);
  }

  /** A kubeconfig the agent cannot connect with; the message says why. */
  public static final class InvalidKubeconfigException extends IOException {
    private static final long serialVersionUID = 1L;

    InvalidKubeconfigException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
