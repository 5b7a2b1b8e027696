package dev.noneops.core.config;

import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The agent configuration, in the upstream shape (see {@link AgentConfigParser} for the JSON keys),
 * plus the node-local DNS settings a host-native node needs. Empty strings mean "not set", as in
 * the upstream JSON. Parsed configurations are already {@linkplain #normalized() normalised};
 * {@link ConfigValidator} decides whether one is usable.
 *
 * @param machineName the Kubernetes Machine resource's name (not the node name, which is the host name)
 * @param cluster the cluster the node joins
 * @param kubelet how kubelet registers
 * @param cri containerd and runc version overrides
 * @param cni CNI plugins version override
 * @param ociImage the rootfs image of containerised nodes; accepted for compatibility, unused by a host-native node
 * @param attest the attestation endpoint of the upstream wrapper; accepted for compatibility and not persisted
 * @param downloads where artifacts are downloaded from; persisted in the applied config, since they decide the version name
 * @param localDns the node-local DNS cache
 */
public record AgentConfig(
    String machineName,
    Cluster cluster,
    Kubelet kubelet,
    Cri cri,
    Cni cni,
    String ociImage,
    Attest attest,
    Downloads downloads,
    LocalDns localDns) {

  /** LocalDNS listens here unless configured otherwise (the address node-local-dns uses). */
  public static final String DEFAULT_LOCALDNS_BIND_ADDRESS = "169.254.20.10";

  /** The dummy interface LocalDNS listens on unless configured otherwise. */
  public static final String DEFAULT_LOCALDNS_INTERFACE = "localdns0";

  /** The cluster domain LocalDNS forwards to the cluster DNS unless configured otherwise. */
  public static final String DEFAULT_CLUSTER_DOMAIN = "cluster.local";

  public AgentConfig {
    Objects.requireNonNull(machineName, "machineName");
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(kubelet, "kubelet");
    Objects.requireNonNull(cri, "cri");
    Objects.requireNonNull(cni, "cni");
    Objects.requireNonNull(ociImage, "ociImage");
    Objects.requireNonNull(attest, "attest");
    Objects.requireNonNull(downloads, "downloads");
    Objects.requireNonNull(localDns, "localDns");
  }

  /**
   * This configuration (normalised) as the JSON document {@link AgentConfigParser} reads back to an
   * equal configuration: what the applied configuration file holds, and what a caller writes as
   * the agent's configuration file.
   */
  public byte[] toJson() {
    return AgentConfigJson.applied(this);
  }

  /**
   * This configuration normalised as upstream does on load, plus defaults: one leading {@code v}
   * stripped from every version (when a digit follows, so that normalising is idempotent); {@code https://} prepended to an API server that names no scheme
   * (one that names another scheme, such as {@code http://}, is kept so that validation rejects
   * it rather than producing {@code https://http://...}); LocalDNS defaults filled in.
   * Normalising twice changes nothing.
   */
  public AgentConfig normalized() {
    return new AgentConfig(
        machineName,
        new Cluster(cluster.caCertBase64(), cluster.clusterDns(), stripV(cluster.version())),
        new Kubelet(
            normalizeApiServer(kubelet.apiServer()),
            kubelet.auth(),
            kubelet.labels(),
            kubelet.registerWithTaints()),
        new Cri(stripV(cri.containerdVersion()), stripV(cri.runcVersion())),
        new Cni(stripV(cni.pluginVersion())),
        ociImage,
        attest,
        downloads.normalized(),
        new LocalDns(
            stripV(localDns.version()),
            orDefault(localDns.bindAddress(), DEFAULT_LOCALDNS_BIND_ADDRESS),
            orDefault(localDns.interfaceName(), DEFAULT_LOCALDNS_INTERFACE),
            orDefault(localDns.clusterDomain(), DEFAULT_CLUSTER_DOMAIN)));
  }

  /** This configuration with other download overrides. */
  public AgentConfig withDownloads(Downloads newDownloads) {
    return new AgentConfig(
        machineName, cluster, kubelet, cri, cni, ociImage, attest, newDownloads, localDns);
  }

  /** The effective version of every component, with defaults and derivations applied. */
  public ComponentVersions effectiveVersions() {
    return new ComponentVersions(
        effectiveKubernetesVersion(),
        effectiveContainerdVersion(),
        effectiveRuncVersion(),
        effectiveCniPluginVersion(),
        effectiveCrictlVersion(),
        effectiveLocalDnsVersion());
  }

  /** The Kubernetes version binaries are installed at: the download override, else {@code Cluster.Version}. */
  public String effectiveKubernetesVersion() {
    return downloads.kubernetes().version().isEmpty()
        ? cluster.version()
        : downloads.kubernetes().version();
  }

  /** The containerd version to install: the download override, else {@code CRI.Containerd.Version}, else the default. */
  public String effectiveContainerdVersion() {
    return firstSet(
        downloads.containerd().version(), cri.containerdVersion(), DefaultVersions.CONTAINERD);
  }

  /** The runc version to install: the download override, else {@code CRI.Runc.Version}, else the default. */
  public String effectiveRuncVersion() {
    return firstSet(downloads.runc().version(), cri.runcVersion(), DefaultVersions.RUNC);
  }

  /** The CNI plugins version to install: the download override, else {@code CNI.PluginVersion}, else the default. */
  public String effectiveCniPluginVersion() {
    return firstSet(downloads.cni().version(), cni.pluginVersion(), DefaultVersions.CNI_PLUGINS);
  }

  /** The LocalDNS version to install: the download override, else {@code LocalDNS.Version}, else the default. */
  public String effectiveLocalDnsVersion() {
    return firstSet(downloads.localDns().version(), localDns.version(), DefaultVersions.LOCALDNS);
  }

  /**
   * The crictl version to install: the download override, else the Kubernetes minor line (crictl
   * follows Kubernetes' minor version).
   */
  public String effectiveCrictlVersion() {
    return downloads.crictl().version().isEmpty()
        ? SemanticVersion.parse(effectiveKubernetesVersion())
            .orElseThrow(() -> new IllegalStateException("validated Kubernetes version"))
            .minorLine()
        : downloads.crictl().version();
  }

  private static String firstSet(String override, String configured, String fallback) {
    return !override.isEmpty() ? override : configured.isEmpty() ? fallback : configured;
  }

  /** Strips a leading {@code v} that starts a version number ({@code v1.2.3}); anything else is kept for validation to judge. */
  static String stripV(String version) {
    return version.length() > 1 && version.charAt(0) == 'v' && Character.isDigit(version.charAt(1))
        ? version.substring(1)
        : version;
  }

  private static String normalizeApiServer(String apiServer) {
    if (apiServer.isEmpty() || apiServer.contains("://")) {
      return apiServer;
    }
    return "https://" + apiServer;
  }

  private static String orDefault(String value, String fallback) {
    return value.isEmpty() ? fallback : value;
  }

  /**
   * The cluster the node joins.
   *
   * @param caCertBase64 the cluster CA, PEM, standard base64 with padding
   * @param clusterDns the cluster DNS service IP, which LocalDNS forwards the cluster domain to
   * @param version the Kubernetes version
   */
  public record Cluster(String caCertBase64, String clusterDns, String version) {
    public Cluster {
      Objects.requireNonNull(caCertBase64, "caCertBase64");
      Objects.requireNonNull(clusterDns, "clusterDns");
      Objects.requireNonNull(version, "version");
    }
  }

  /**
   * How kubelet registers.
   *
   * @param apiServer the API server URL
   * @param auth how kubelet authenticates
   * @param labels node labels, sorted by key
   * @param registerWithTaints taints, {@code key[=value]:Effect}
   */
  public record Kubelet(
      String apiServer,
      Auth auth,
      SortedMap<String, String> labels,
      List<String> registerWithTaints) {
    public Kubelet {
      Objects.requireNonNull(apiServer, "apiServer");
      Objects.requireNonNull(auth, "auth");
      labels = Collections.unmodifiableSortedMap(new TreeMap<>(labels));
      registerWithTaints = List.copyOf(registerWithTaints);
    }
  }

  /**
   * kubelet's credentials as written, before validation: a usable configuration sets exactly one.
   *
   * @param bootstrapToken the TLS bootstrap token, {@code ""} when not set
   * @param execCredential the exec plugin, when set
   */
  public record Auth(String bootstrapToken, Optional<KubeletAuth.ExecCredential> execCredential) {
    public Auth {
      Objects.requireNonNull(bootstrapToken, "bootstrapToken");
      Objects.requireNonNull(execCredential, "execCredential");
    }

    public static Auth token(String token) {
      return new Auth(token, Optional.empty());
    }

    public static Auth exec(KubeletAuth.ExecCredential exec) {
      return new Auth("", Optional.of(exec));
    }

    /**
     * The one credential set.
     *
     * @throws IllegalStateException when both or neither are set (validation reports this first)
     */
    public KubeletAuth kubeletAuth() {
      if (!bootstrapToken.isEmpty() && execCredential.isPresent()) {
        throw new IllegalStateException(ConfigValidator.AUTH_BOTH);
      }
      if (!bootstrapToken.isEmpty()) {
        return new KubeletAuth.BootstrapToken(bootstrapToken);
      }
      return execCredential.orElseThrow(
          () -> new IllegalStateException(ConfigValidator.AUTH_NEITHER));
    }

    @Override
    public String toString() {
      return "Auth[bootstrapToken=" + (bootstrapToken.isEmpty() ? "" : "<redacted>")
          + ", execCredential=" + execCredential + "]";
    }
  }

  /**
   * containerd and runc version overrides ({@code CRI.Containerd.Version}, {@code CRI.Runc.Version}).
   *
   * @param containerdVersion {@code ""} for the default
   * @param runcVersion {@code ""} for the default
   */
  public record Cri(String containerdVersion, String runcVersion) {
    public static final Cri DEFAULTS = new Cri("", "");

    public Cri {
      Objects.requireNonNull(containerdVersion, "containerdVersion");
      Objects.requireNonNull(runcVersion, "runcVersion");
    }
  }

  /**
   * CNI plugins version override ({@code CNI.PluginVersion}).
   *
   * @param pluginVersion {@code ""} for the default
   */
  public record Cni(String pluginVersion) {
    public static final Cni DEFAULTS = new Cni("");

    public Cni {
      Objects.requireNonNull(pluginVersion, "pluginVersion");
    }
  }

  /**
   * The upstream wrapper's attestation endpoint ({@code Attest.URL}).
   *
   * @param url {@code ""} when not set
   */
  public record Attest(String url) {
    public static final Attest NONE = new Attest("");

    public Attest {
      Objects.requireNonNull(url, "url");
    }
  }

  /** Per-artifact download overrides ({@code Downloads.<Artifact>}). */
  public record Downloads(
      Download kubernetes,
      Download containerd,
      Download runc,
      Download cni,
      Download crictl,
      Download localDns) {
    public static final Downloads NONE = new Downloads(
        Download.NONE, Download.NONE, Download.NONE, Download.NONE, Download.NONE, Download.NONE);

    public Downloads {
      Objects.requireNonNull(kubernetes, "kubernetes");
      Objects.requireNonNull(containerd, "containerd");
      Objects.requireNonNull(runc, "runc");
      Objects.requireNonNull(cni, "cni");
      Objects.requireNonNull(crictl, "crictl");
      Objects.requireNonNull(localDns, "localDns");
    }

    /** The override of {@code artifact}. */
    public Download of(DownloadArtifact artifact) {
      return switch (artifact) {
        case KUBERNETES -> kubernetes;
        case CONTAINERD -> containerd;
        case RUNC -> runc;
        case CNI -> cni;
        case CRICTL -> crictl;
        case LOCALDNS -> localDns;
      };
    }

    Downloads normalized() {
      return new Downloads(
          kubernetes.normalized(),
          containerd.normalized(),
          runc.normalized(),
          cni.normalized(),
          crictl.normalized(),
          localDns.normalized());
    }
  }

  /**
   * One artifact's download override and how its content is verified; empty strings mean "not
   * overridden".
   *
   * @param baseUrl replaces the default base URL (one trailing {@code /} is ignored)
   * @param url a URL template with positional {@code %s}, which wins over {@code baseUrl}
   * @param version wins over the configured and the default version
   * @param sha256 pinned SHA-256 digests (lower-case hex once normalised), which win over the
   *     checksum published beside the artifact: for Kubernetes by binary name ({@code kubelet},
   *     {@code kubectl}, {@code kube-proxy}), for every other artifact under {@link #SINGLE_FILE}
   * @param allowUnverified install the artifact without a digest when neither a pinned one nor the
   *     published checksum can be had (a published checksum that is there is still checked)
   * @param sha256Url a URL template, with the arguments of {@code url}, of the checksum document
   *     to read instead of the one beside the artifact: for a signed artifact URL, whose signature
   *     does not cover a URL derived from it
   */
  public record Download(
      String baseUrl,
      String url,
      String version,
      SortedMap<String, String> sha256,
      boolean allowUnverified,
      String sha256Url) {
    /** The key of the one pinned digest of an artifact that is a single file. */
    public static final String SINGLE_FILE = "";

    public static final Download NONE = new Download("", "", "");

    public Download {
      Objects.requireNonNull(baseUrl, "baseUrl");
      Objects.requireNonNull(url, "url");
      Objects.requireNonNull(version, "version");
      sha256 = Collections.unmodifiableSortedMap(new TreeMap<>(sha256));
      Objects.requireNonNull(sha256Url, "sha256Url");
    }

    /** An override verified against the checksum published beside the artifact, or a pinned one. */
    public Download(
        String baseUrl,
        String url,
        String version,
        SortedMap<String, String> sha256,
        boolean allowUnverified) {
      this(baseUrl, url, version, sha256, allowUnverified, "");
    }

    /** An override of where an artifact comes from, verified against its published checksum. */
    public Download(String baseUrl, String url, String version) {
      this(baseUrl, url, version, new TreeMap<>(), false);
    }

    public boolean isEmpty() {
      return baseUrl.isEmpty()
          && url.isEmpty()
          && version.isEmpty()
          && sha256.isEmpty()
          && !allowUnverified
          && sha256Url.isEmpty();
    }

    /** The pinned digest of {@code file} ({@link #SINGLE_FILE}, or a Kubernetes binary's name). */
    public Optional<String> pinned(String file) {
      return Optional.ofNullable(sha256.get(file));
    }

    Download normalized() {
      TreeMap<String, String> lower = new TreeMap<>();
      sha256.forEach((file, hex) -> lower.put(file, hex.toLowerCase(Locale.ROOT)));
      return new Download(baseUrl, url, stripV(version), lower, allowUnverified, sha256Url);
    }
  }

  /**
   * The node-local DNS cache ({@code LocalDNS}).
   *
   * @param version the server (CoreDNS) version, {@code ""} for the default
   * @param bindAddress the address it listens on and kubelet's {@code --cluster-dns} points at
   * @param interfaceName the dummy interface carrying {@code bindAddress}
   * @param clusterDomain the domain forwarded to {@code Cluster.ClusterDNS}
   */
  public record LocalDns(
      String version, String bindAddress, String interfaceName, String clusterDomain) {
    public static final LocalDns DEFAULTS = new LocalDns("", "", "", "");

    public LocalDns {
      Objects.requireNonNull(version, "version");
      Objects.requireNonNull(bindAddress, "bindAddress");
      Objects.requireNonNull(interfaceName, "interfaceName");
      Objects.requireNonNull(clusterDomain, "clusterDomain");
    }
  }

  /** How kubelet authenticates to the API server: exactly one of a bootstrap token or an exec plugin. */
  public sealed interface KubeletAuth {

    /** A TLS-bootstrap token {@code <id>.<secret>}. */
    record BootstrapToken(String token) implements KubeletAuth {
      public BootstrapToken {
        Objects.requireNonNull(token, "token");
      }

      @Override
      public String toString() {
        return "BootstrapToken[<redacted>]";
      }
    }

    /** A client-go exec credential plugin. */
    record ExecCredential(
        String command,
        List<String> args,
        List<EnvVar> env,
        String apiVersion,
        String installHint,
        boolean provideClusterInfo)
        implements KubeletAuth {
      public ExecCredential {
        Objects.requireNonNull(command, "command");
        args = List.copyOf(args);
        env = List.copyOf(env);
        Objects.requireNonNull(apiVersion, "apiVersion");
        Objects.requireNonNull(installHint, "installHint");
      }
    }

    /** One environment variable of an exec credential plugin. */
    record EnvVar(String name, String value) {
      public EnvVar {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
      }
    }
  }
}
