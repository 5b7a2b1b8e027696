package dev.noneops.core.config;

import com.google.common.net.InetAddresses;
import dev.noneops.core.config.InvalidConfigException.ConfigViolation;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Decides whether a (normalised) configuration can be applied, and if not, says everything that
 * is wrong with it at once: each violation carries the JSON path and the reason. Stricter than
 * upstream, which checks little beyond the credentials: every value that would otherwise fail late
 * on the host (a kubelet refusing a label, a CA that is not a certificate, a download URL that
 * cannot be built, a version that cannot name a directory) is rejected here, before anything on
 * the host changes.
 */
final class ConfigValidator {
  static final String AUTH_BOTH = "BootstrapToken and ExecCredential are mutually exclusive";
  static final String AUTH_NEITHER = "one of BootstrapToken or ExecCredential must be set";
  static final String REQUIRED = "must be set";

  /** The architectures upstream and noneops build nodes for. */
  public static final Set<String> SUPPORTED_ARCHES = Set.of("amd64", "arm64");

  /** The exec credential API versions kubelet's client-go accepts. */
  public static final List<String> EXEC_API_VERSIONS =
      List.of("client.authentication.k8s.io/v1", "client.authentication.k8s.io/v1beta1");

  private static final Pattern BOOTSTRAP_TOKEN = Pattern.compile("[a-z0-9]{6}\\.[a-z0-9]{16}");
  private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-fA-F]{64}");
  private static final Pattern INTERFACE_NAME = Pattern.compile("[A-Za-z0-9_.-]{1,15}");

  private ConfigValidator() {}

  /**
   * Checks {@code config} for a host of architecture {@code hostArch}.
   *
   * @throws InvalidConfigException listing every violation
   */
  public static void validate(AgentConfig config, String hostArch) {
    List<ConfigViolation> violations = violations(config, hostArch);
    if (!violations.isEmpty()) {
      throw new InvalidConfigException(violations);
    }
  }

  /** Every violation of {@code config} on a host of architecture {@code hostArch}; empty when it is valid. */
  public static List<ConfigViolation> violations(AgentConfig config, String hostArch) {
    Checks c = new Checks();
    if (!SUPPORTED_ARCHES.contains(hostArch)) {
      c.add(
          "host.arch",
          "unsupported architecture " + ConfigText.quote(hostArch) + " (supported: amd64, arm64)");
    }
    checkMachineName(c, config.machineName());
    checkCluster(c, config);
    checkKubelet(c, config.kubelet());
    c.version(
        "CRI.Containerd.Version", config.cri().containerdVersion(), DefaultVersions.CONTAINERD);
    c.version("CRI.Runc.Version", config.cri().runcVersion(), DefaultVersions.RUNC);
    c.version("CNI.PluginVersion", config.cni().pluginVersion(), DefaultVersions.CNI_PLUGINS);
    if (!config.attest().url().isEmpty()) {
      c.baseUrl("Attest.URL", config.attest().url());
    }
    checkDownloads(c, config.downloads());
    checkLocalDns(c, config);
    return c.violations;
  }

  /**
   * {@code MachineName} names a cluster-scoped Machine object, so when set it must be a Kubernetes
   * object name: a DNS-1123 subdomain of at most 253 characters.
   */
  private static void checkMachineName(Checks c, String machineName) {
    if (machineName.isEmpty()) {
      return;
    }
    for (String p : KubernetesNames.dns1123SubdomainProblems(machineName)) {
      c.add(
          "MachineName",
          "is not a Kubernetes object name (a DNS-1123 subdomain such as worker-1): " + p);
    }
  }

  private static void checkCluster(Checks c, AgentConfig config) {
    AgentConfig.Cluster cluster = config.cluster();
    checkCaCert(c, cluster.caCertBase64());
    if (c.required("Cluster.ClusterDNS", cluster.clusterDns())) {
      c.ip("Cluster.ClusterDNS", cluster.clusterDns());
    }
    if (c.required("Cluster.Version", cluster.version())
        && c.version("Cluster.Version", cluster.version(), "1.31.2")
        && config.downloads().kubernetes().version().isEmpty()) {
      c.nameable("Cluster.Version", cluster.version());
    }
  }

  private static void checkCaCert(Checks c, String base64) {
    String path = "Cluster.CaCertBase64";
    if (!c.required(path, base64)) {
      return;
    }
    // Go's standard decoder skips line breaks; it requires padding, which Java's does not.
    String compact = base64.replace("\r", "").replace("\n", "");
    byte[] pem;
    try {
      if (compact.length() % 4 != 0) {
        throw new IllegalArgumentException("its length is not a multiple of 4 (missing padding?)");
      }
      pem = Base64.getDecoder().decode(compact);
    } catch (IllegalArgumentException e) {
      c.add(path, "is not valid standard base64: " + e.getMessage());
      return;
    }
    String text = new String(pem, StandardCharsets.US_ASCII);
    if (!text.contains("-----BEGIN CERTIFICATE-----")) {
      c.add(path, "does not decode to a PEM certificate (no -----BEGIN CERTIFICATE----- block)");
      return;
    }
    try {
      if (CertificateFactory.getInstance("X.509")
          .generateCertificates(new ByteArrayInputStream(pem))
          .isEmpty()) {
        c.add(path, "does not decode to a PEM certificate (no certificate found)");
      }
    } catch (CertificateException e) {
      c.add(path, "holds a PEM block that is not a valid X.509 certificate: " + e.getMessage());
    }
  }

  private static void checkKubelet(Checks c, AgentConfig.Kubelet kubelet) {
    if (c.required("Kubelet.ApiServer", kubelet.apiServer())) {
      c.url("Kubelet.ApiServer", kubelet.apiServer(), Set.of("https"), false);
    }
    checkAuth(c, kubelet.auth());
    kubelet.labels().forEach((key, value) -> {
      String path = ConfigText.entry("Kubelet.Labels", key);
      for (String p : KubernetesNames.qualifiedNameProblems(key)) {
        c.add(path, "key is not a qualified name: " + p);
      }
      if (KubernetesNames.kubeletMayNotSet(key)) {
        c.add(
            path,
            "key is in the kubernetes.io or k8s.io namespace, which kubelet may not set on its node"
                + " (allowed there: kubelet.kubernetes.io/*, node.kubernetes.io/* and the well-known labels such as kubernetes.io/hostname)");
      }
      for (String p : KubernetesNames.labelValueProblems(value)) {
        c.add(path, "value is not a valid label value: " + p);
      }
    });
    Map<String, Integer> seen = new HashMap<>();
    for (int i = 0; i < kubelet.registerWithTaints().size(); i++) {
      String path = ConfigText.index("Kubelet.RegisterWithTaints", i);
      List<String> problems = new ArrayList<>();
      KubernetesNames.Taint taint =
          KubernetesNames.parseTaint(kubelet.registerWithTaints().get(i), problems);
      problems.forEach(p -> c.add(path, p));
      if (taint != null) {
        Integer first = seen.putIfAbsent(taint.key() + ":" + taint.effect(), i);
        if (first != null) {
          c.add(
              path,
              "repeats the key and effect of Kubelet.RegisterWithTaints[" + first
                  + "] (taints must be unique by key and effect)");
        }
      }
    }
  }

  private static void checkAuth(Checks c, AgentConfig.Auth auth) {
    boolean token = !auth.bootstrapToken().isEmpty();
    if (token && auth.execCredential().isPresent()) {
      c.add("Kubelet.Auth", AUTH_BOTH);
    } else if (!token && auth.execCredential().isEmpty()) {
      c.add("Kubelet.Auth", AUTH_NEITHER);
    }
    if (token && !BOOTSTRAP_TOKEN.matcher(auth.bootstrapToken()).matches()) {
      // The token is a secret: never echo it.
      c.add(
          "Kubelet.Auth.BootstrapToken",
          "must have the form <id>.<secret>: 6 and 16 characters of [a-z0-9]");
    }
    auth.execCredential().ifPresent(exec -> {
      String path = "Kubelet.Auth.ExecCredential";
      c.required(path + ".command", exec.command());
      if (exec.apiVersion().isEmpty()) {
        c.add(path + ".apiVersion", "must be set (" + String.join(" or ", EXEC_API_VERSIONS) + ")");
      } else if (!EXEC_API_VERSIONS.contains(exec.apiVersion())) {
        c.add(
            path + ".apiVersion",
            "must be " + String.join(" or ", EXEC_API_VERSIONS) + ", got "
                + ConfigText.quote(exec.apiVersion()));
      }
      for (int i = 0; i < exec.env().size(); i++) {
        c.required(
            ConfigText.index(path + ".env", i) + ".name", exec.env().get(i).name());
      }
    });
  }

  private static void checkDownloads(Checks c, AgentConfig.Downloads downloads) {
    for (DownloadArtifact artifact : DownloadArtifact.values()) {
      AgentConfig.Download d = downloads.of(artifact);
      String path = "Downloads." + artifact.jsonName();
      if (!d.baseUrl().isEmpty()) {
        c.baseUrl(path + ".BaseURL", d.baseUrl());
      }
      if (!d.url().isEmpty()) {
        checkTemplate(c, artifact, path + ".URL", d.url());
      }
      if (!d.sha256Url().isEmpty()) {
        checkTemplate(c, artifact, path + ".SHA256URL", d.sha256Url());
        boolean everyFilePinned = artifact == DownloadArtifact.KUBERNETES
            ? d.sha256().keySet().containsAll(DownloadArtifact.KUBERNETES_BINARIES)
            : d.pinned(AgentConfig.Download.SINGLE_FILE).isPresent();
        if (everyFilePinned) {
          c.add(
              path + ".SHA256URL",
              "is never read: the pinned " + path + ".SHA256 wins; set one of them");
        }
      }
      d.sha256().forEach((file, hex) -> {
        String pinPath = file.equals(AgentConfig.Download.SINGLE_FILE)
            ? path + ".SHA256"
            : path + ".SHA256." + file;
        if (!SHA256_HEX.matcher(hex).matches()) {
          c.add(
              pinPath, "must be a SHA-256 digest: 64 hex characters, got " + ConfigText.quote(hex));
        }
      });
      if (!d.version().isEmpty()
          && c.version(path + ".Version", d.version(), "1.0.0")
          && artifact == DownloadArtifact.KUBERNETES) {
        c.nameable(path + ".Version", d.version());
      }
    }
  }

  /** A {@code URL} or {@code SHA256URL} template: usable with the artifact's arguments, rendering an http(s) URL. */
  private static void checkTemplate(
      Checks c, DownloadArtifact artifact, String path, String template) {
    Optional<String> problem =
        UrlTemplate.problem(template, artifact.templateArgs().size());
    if (problem.isPresent()) {
      c.add(
          path,
          "is not a usable URL template: it " + problem.get() + " (arguments in order: "
              + String.join(", ", artifact.templateArgs()) + ")");
      return;
    }
    String sample = artifact.render(template, "1.0.0", "amd64", "kubelet");
    urlProblem(sample, Set.of("http", "https"), true)
        .ifPresent(p -> c.add(
            path,
            "does not render to a valid URL (for example " + ConfigText.quote(sample) + "): " + p));
  }

  private static void checkLocalDns(Checks c, AgentConfig config) {
    AgentConfig.LocalDns dns = config.localDns();
    c.version("LocalDNS.Version", dns.version(), DefaultVersions.LOCALDNS);
    if (c.required("LocalDNS.BindAddress", dns.bindAddress())
        && c.ip("LocalDNS.BindAddress", dns.bindAddress())
        && InetAddresses.isInetAddress(config.cluster().clusterDns())
        && InetAddresses.forString(dns.bindAddress())
            .equals(InetAddresses.forString(config.cluster().clusterDns()))) {
      c.add(
          "LocalDNS.BindAddress",
          "must differ from Cluster.ClusterDNS, which LocalDNS forwards the cluster domain to");
    }
    String ifname = dns.interfaceName();
    if (c.required("LocalDNS.InterfaceName", ifname)
        && (!INTERFACE_NAME.matcher(ifname).matches()
            || ifname.equals(".")
            || ifname.equals(".."))) {
      c.add(
          "LocalDNS.InterfaceName",
          "must be a network interface name: 1 to 15 characters of [A-Za-z0-9_.-], not '.' or '..', got "
              + ConfigText.quote(ifname));
    }
    if (c.required("LocalDNS.ClusterDomain", dns.clusterDomain())) {
      for (String p : KubernetesNames.dns1123SubdomainProblems(dns.clusterDomain())) {
        c.add("LocalDNS.ClusterDomain", "is not a DNS domain such as cluster.local: " + p);
      }
    }
  }

  /**
   * What is wrong with {@code value} as a URL with one of {@code schemes} and a host, or empty.
   *
   * @param allowQuery whether a query string may follow (rendered templates), or not (base URLs, the API server)
   */
  static Optional<String> urlProblem(String value, Set<String> schemes, boolean allowQuery) {
    URI uri;
    try {
      uri = new URI(value);
    } catch (URISyntaxException e) {
      return Optional.of("is not a valid URL: " + e.getReason() + " at index " + e.getIndex());
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!schemes.contains(scheme)) {
      return Optional.of(
          schemes.size() == 1
              ? "must use " + schemes.iterator().next() + ", got " + ConfigText.quote(value)
              : "must be an http or https URL, got " + ConfigText.quote(value));
    }
    if (uri.getHost() == null || uri.getHost().isEmpty()) {
      return Optional.of("must name a host, got " + ConfigText.quote(value));
    }
    if (uri.getRawUserInfo() != null) {
      return Optional.of("must not carry user credentials");
    }
    if (uri.getRawFragment() != null || (!allowQuery && uri.getRawQuery() != null)) {
      return Optional.of(
          allowQuery ? "must not have a fragment" : "must not have a query or fragment");
    }
    return Optional.empty();
  }

  /** Collects violations; each check returns whether the value passed, so dependent checks can be skipped. */
  private static final class Checks {
    final List<ConfigViolation> violations = new ArrayList<>();

    void add(String path, String reason) {
      violations.add(new ConfigViolation(path, reason));
    }

    boolean required(String path, String value) {
      if (value.isEmpty()) {
        add(path, REQUIRED);
        return false;
      }
      return true;
    }

    /** An optional version: empty passes. */
    boolean version(String path, String value, String example) {
      if (value.isEmpty() || SemanticVersion.isValid(value)) {
        return true;
      }
      add(
          path,
          "must be a semantic version such as " + example + ", got " + ConfigText.quote(value));
      return false;
    }

    void nameable(String path, String kubernetesVersion) {
      VersionFor.problemWith(kubernetesVersion)
          .ifPresent(p -> add(path, "cannot name a version directory: " + p));
    }

    boolean ip(String path, String value) {
      if (InetAddresses.isInetAddress(value)) {
        return true;
      }
      add(path, "must be an IP address, got " + ConfigText.quote(value));
      return false;
    }

    void url(String path, String value, Set<String> schemes, boolean allowQuery) {
      urlProblem(value, schemes, allowQuery).ifPresent(p -> add(path, p));
    }

    void baseUrl(String path, String value) {
      url(path, value, Set.of("http", "https"), false);
    }
  }
}
