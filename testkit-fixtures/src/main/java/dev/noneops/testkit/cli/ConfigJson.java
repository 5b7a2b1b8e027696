package dev.noneops.testkit.cli;

import java.util.Objects;

/**
 * Agent configurations (upstream JSON) for tests and the demo: a valid node joining an example
 * cluster, with the versions and download base URL given.
 *
 * @param machineName the Machine's name
 * @param kubernetesVersion {@code Cluster.Version}
 * @param containerdVersion {@code CRI.Containerd.Version}, empty for the default
 * @param runcVersion {@code CRI.Runc.Version}, empty for the default
 * @param downloadBase the artifact server every {@code Downloads.<Artifact>.BaseURL} points under
 *     ({@code <base>/<kind>}), empty for the upstream sites
 * @param localDnsBindAddress {@code LocalDNS.BindAddress}, empty for the default
 */
public record ConfigJson(
    String machineName,
    String kubernetesVersion,
    String containerdVersion,
    String runcVersion,
    String downloadBase,
    String localDnsBindAddress) {

  /** A self-signed EC certificate, PEM, base64: the example cluster's CA. */
  public static final String CA_BASE64 =
      "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUJpakNDQVRHZ0F3SUJBZ0lVQ1l0L3pheWM3TjJqNUZzQTBoYmRjVUF5T29Nd0NnWUlLb1pJemowRUF3SXcKR2pFWU1CWUdBMVVFQXd3UGRHVnpkQzFqYkhWemRHVnlMV05oTUNBWERUSTJNVEV6TURFd016UTBNbG9ZRHpJeApNall4TVRBMk1UQXpORFF5V2pBYU1SZ3dGZ1lEVlFRRERBOTBaWE4wTFdOc2RYTjBaWEl0WTJFd1dUQVRCZ2NxCmhrak9QUUlCQmdncWhrak9QUU1CQndOQ0FBUlFuQlFQQzlWaVF6dml4V0dlVHpCMFg2b2Z5dE05QWNSdDBsSWMKQXN3RjlaVGFsOWl0QnBzOWErWlU5cHRzMkMxZ2hJT0kzenBrUW5oUmVBaldhb2JzbzFNd1VUQWRCZ05WSFE0RQpGZ1FVSkRGUkQ1YjJvckhNRk01c2poQkIvM0R0TFkwd0h3WURWUjBqQkJnd0ZvQVVKREZSRDViMm9ySE1GTTVzCmpoQkIvM0R0TFkwd0R3WURWUjBUQVFIL0JBVXdBd0VCL3pBS0JnZ3Foa2pPUFFRREFnTkhBREJFQWlCYm9WTDMKU0xvZE1wMFNtNE1MS0xnbW9RMU1qVVpoaTI0T3JUNk1Ea0tJUHdJZ1lWdk15cFN0S2xoT25OaEEyV2dtalZFUwo2TnVYWUNKRzd1Z0pKUHlSdU5jPQotLS0tLUVORCBDRVJUSUZJQ0FURS0tLS0tCg==";

  public ConfigJson {
    Objects.requireNonNull(machineName, "machineName");
    Objects.requireNonNull(kubernetesVersion, "kubernetesVersion");
    Objects.requireNonNull(containerdVersion, "containerdVersion");
    Objects.requireNonNull(runcVersion, "runcVersion");
    Objects.requireNonNull(downloadBase, "downloadBase");
    Objects.requireNonNull(localDnsBindAddress, "localDnsBindAddress");
  }

  /** A node {@code worker-1} at Kubernetes {@code kubernetesVersion}, default components, upstream downloads. */
  public static ConfigJson of(String kubernetesVersion) {
    return new ConfigJson("worker-1", kubernetesVersion, "", "", "", "");
  }

  public ConfigJson withContainerd(String version) {
    return new ConfigJson(
        machineName, kubernetesVersion, version, runcVersion, downloadBase, localDnsBindAddress);
  }

  public ConfigJson withRunc(String version) {
    return new ConfigJson(
        machineName,
        kubernetesVersion,
        containerdVersion,
        version,
        downloadBase,
        localDnsBindAddress);
  }

  public ConfigJson withKubernetes(String version) {
    return new ConfigJson(
        machineName, version, containerdVersion, runcVersion, downloadBase, localDnsBindAddress);
  }

  public ConfigJson withDownloadsFrom(String base) {
    return new ConfigJson(
        machineName, kubernetesVersion, containerdVersion, runcVersion, base, localDnsBindAddress);
  }

  public ConfigJson withLocalDnsBindAddress(String address) {
    return new ConfigJson(
        machineName, kubernetesVersion, containerdVersion, runcVersion, downloadBase, address);
  }

  /** The configuration as the agent reads it. */
  public String json() {
    StringBuilder s = new StringBuilder();
    s.append("{\n");
    s.append("  \"MachineName\": \"").append(machineName).append("\",\n");
    s.append("  \"Cluster\": { \"CaCertBase64\": \"")
        .append(CA_BASE64)
        .append("\", \"ClusterDNS\": \"10.96.0.10\", \"Version\": \"v")
        .append(kubernetesVersion)
        .append("\" },\n");
    s.append("  \"Kubelet\": {\n");
    s.append("    \"ApiServer\": \"https://api.example.com:6443\",\n");
    s.append("    \"Auth\": { \"BootstrapToken\": \"abcdef.0123456789abcdef\" },\n");
    s.append("    \"Labels\": { \"example.com/pool\": \"demo\" },\n");
    s.append("    \"RegisterWithTaints\": []\n");
    s.append("  },\n");
    s.append("  \"CRI\": { \"Containerd\": { \"Version\": \"")
        .append(containerdVersion)
        .append("\" }, \"Runc\": { \"Version\": \"")
        .append(runcVersion)
        .append("\" } }");
    if (!localDnsBindAddress.isEmpty()) {
      s.append(",\n  \"LocalDNS\": { \"BindAddress\": \"")
          .append(localDnsBindAddress)
          .append("\" }");
    }
    if (!downloadBase.isEmpty()) {
      String b = downloadBase.replaceAll("/+$", "");
      s.append(",\n  \"Downloads\": {\n");
      s.append("    \"Kubernetes\": { \"BaseURL\": \"").append(b).append("/kubernetes\" },\n");
      s.append("    \"Containerd\": { \"BaseURL\": \"").append(b).append("/containerd\" },\n");
      s.append("    \"Runc\": { \"BaseURL\": \"").append(b).append("/runc\" },\n");
      s.append("    \"CNI\": { \"BaseURL\": \"").append(b).append("/cni\" },\n");
      s.append("    \"Crictl\": { \"BaseURL\": \"").append(b).append("/crictl\" },\n");
      s.append("    \"LocalDNS\": { \"BaseURL\": \"").append(b).append("/localdns\" }\n");
      s.append("  }");
    }
    s.append("\n}\n");
    return s.toString();
  }
}
