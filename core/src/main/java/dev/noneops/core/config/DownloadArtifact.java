package dev.noneops.core.config;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The downloadable artifacts and their upstream URL rules. The default URL is
 * {@code <defaultBase><path>}; a {@code BaseURL} override replaces {@code <defaultBase>} (one
 * trailing {@code /} trimmed); a {@code URL} override is a {@link UrlTemplate} rendered with
 * {@link #templateArgs()} in order, and wins over {@code BaseURL}; a {@code SHA256URL} override is
 * such a template too, naming the checksum document. Versions are passed without a leading
 * {@code v}.
 */
public enum DownloadArtifact {
  KUBERNETES(
      "Kubernetes",
      "https://dl.k8s.io",
      "/v{version}/bin/linux/{arch}/{binary}",
      List.of("version", "arch", "binary")),
  CONTAINERD(
      "Containerd",
      "https://github.com/containerd/containerd/releases/download",
      "/v{version}/containerd-{version}-linux-{arch}.tar.gz",
      List.of("version", "version", "arch")),
  RUNC(
      "Runc",
      "https://github.com/opencontainers/runc/releases/download",
      "/v{version}/runc.{arch}",
      List.of("version", "arch")),
  CNI(
      "CNI",
      "https://github.com/containernetworking/plugins/releases/download",
      "/v{version}/cni-plugins-linux-{arch}-v{version}.tgz",
      List.of("version", "arch", "version")),
  CRICTL(
      "Crictl",
      "https://github.com/kubernetes-sigs/cri-tools/releases/download",
      "/v{version}/crictl-v{version}-{os}-{arch}.tar.gz",
      List.of("version", "version", "os", "arch")),
  LOCALDNS(
      "LocalDNS",
      "https://github.com/coredns/coredns/releases/download",
      "/v{version}/coredns_{version}_linux_{arch}.tgz",
      List.of("version", "version", "arch"));

  /** The operating system crictl's URL names. */
  public static final String OS = "linux";

  /** The Kubernetes binaries a version installs, each beside its published {@code .sha256}. */
  public static final List<String> KUBERNETES_BINARIES =
      List.of("kubelet", "kubectl", "kube-proxy");

  private final String jsonName;
  private final String defaultBase;
  private final String path;
  private final List<String> templateArgs;

  DownloadArtifact(String jsonName, String defaultBase, String path, List<String> templateArgs) {
    this.jsonName = jsonName;
    this.defaultBase = defaultBase;
    this.path = path;
    this.templateArgs = templateArgs;
  }

  /** The key under {@code Downloads}, e.g. {@code Containerd}. */
  public String jsonName() {
    return jsonName;
  }

  public String defaultBase() {
    return defaultBase;
  }

  /** What a {@code URL} template's positional arguments are, in order. */
  public List<String> templateArgs() {
    return templateArgs;
  }

  /**
   * The URL of this artifact.
   *
   * @param override the configured override ({@link AgentConfig.Download#NONE} for none)
   * @param version the effective version, without {@code v}
   * @param arch {@code amd64} or {@code arm64}
   * @param binary the binary name (Kubernetes only; ignored otherwise)
   * @throws IllegalArgumentException when the override's template is unusable (validation reports it first)
   */
  public String url(AgentConfig.Download override, String version, String arch, String binary) {
    Objects.requireNonNull(override, "override");
    if (!override.url().isEmpty()) {
      return render(override.url(), version, arch, binary);
    }
    String base = override.baseUrl().isEmpty() ? defaultBase : trimOneSlash(override.baseUrl());
    return base
        + path.replace("{version}", version)
            .replace("{arch}", arch)
            .replace("{os}", OS)
            .replace("{binary}", binary);
  }

  /**
   * The URL of this artifact's checksum document as configured ({@code SHA256URL}, a template with
   * the arguments of {@code URL}), or empty when the one published beside the artifact is read.
   *
   * @throws IllegalArgumentException when the template is unusable (validation reports it first)
   */
  public Optional<String> checksumUrl(
      AgentConfig.Download override, String version, String arch, String binary) {
    Objects.requireNonNull(override, "override");
    if (override.sha256Url().isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(render(override.sha256Url(), version, arch, binary));
  }

  /** {@code template} ({@code URL} or {@code SHA256URL}) rendered with this artifact's arguments. */
  String render(String template, String version, String arch, String binary) {
    return UrlTemplate.render(
        template,
        templateArgs.stream().map(name -> argument(name, version, arch, binary)).toList());
  }

  private static String argument(String name, String version, String arch, String binary) {
    return switch (name) {
      case "version" -> version;
      case "arch" -> arch;
      case "os" -> OS;
      case "binary" -> binary;
      default -> throw new IllegalStateException("unknown template argument " + name);
    };
  }

  static String trimOneSlash(String baseUrl) {
    return baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
  }
}
