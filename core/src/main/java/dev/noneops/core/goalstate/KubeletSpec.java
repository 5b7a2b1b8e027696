package dev.noneops.core.goalstate;

import dev.noneops.core.config.AgentConfig.KubeletAuth;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * kubelet's configuration.
 *
 * @param kubeletBinPath the kubelet binary (under {@code current/bin})
 * @param auth bootstrap token or exec credential
 * @param apiServer the API server URL ({@code https://...})
 * @param caCertPem the cluster CA, PEM
 * @param clusterDns what kubelet's {@code --cluster-dns} points at: the LocalDNS address
 * @param nodeLabels node labels, sorted by key
 * @param registerWithTaints taints, {@code key=value:Effect}
 * @param resolvConf what kubelet's {@code --resolv-conf} points at: the host's resolv.conf with
 *     servers pods can reach
 */
public record KubeletSpec(
    String kubeletBinPath,
    KubeletAuth auth,
    String apiServer,
    byte[] caCertPem,
    String clusterDns,
    SortedMap<String, String> nodeLabels,
    List<String> registerWithTaints,
    String resolvConf) {
  public KubeletSpec {
    Objects.requireNonNull(kubeletBinPath, "kubeletBinPath");
    Objects.requireNonNull(auth, "auth");
    Objects.requireNonNull(apiServer, "apiServer");
    caCertPem = caCertPem.clone();
    Objects.requireNonNull(clusterDns, "clusterDns");
    nodeLabels = Collections.unmodifiableSortedMap(new TreeMap<>(nodeLabels));
    registerWithTaints = List.copyOf(registerWithTaints);
    Objects.requireNonNull(resolvConf, "resolvConf");
  }

  @Override
  public byte[] caCertPem() {
    return caCertPem.clone();
  }
}
