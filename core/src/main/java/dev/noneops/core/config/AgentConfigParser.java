package dev.noneops.core.config;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.noneops.core.config.AgentConfig.KubeletAuth;
import dev.noneops.core.config.InvalidConfigException.ConfigViolation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * Reads an agent configuration from its upstream JSON form and normalises it.
 *
 * <p>Keys are PascalCase as upstream writes them ({@code ExecCredential}'s inner keys are client-go's
 * camelCase) and, as with Go's {@code encoding/json}, match case-insensitively; {@code null} means
 * "not set".
 *
 * <p><b>Unknown keys are rejected</b>, each reported with its JSON path, where upstream silently
 * ignores them. A misspelt key is otherwise a setting that quietly does nothing: the documented
 * but wrong flat {@code Kubelet.BootstrapToken} would drop kubelet's credentials and a
 * {@code Downloads.Containerd.Verison} would install a version nobody asked for. A node agent
 * applies a configuration to a production host, so an unrecognised key is an error, not a hint.
 * The upstream wrapper's {@code Attest} object is a known key (accepted, not used by host-native
 * nodes), so configuration files written for the upstream agent still load.
 *
 * <p>Duplicate keys (also when they differ only in case) and trailing content are rejected too.
 *
 * <p>{@code ExecCredential.interactiveMode} is read and checked but not kept: kubelet runs its
 * plugin without a terminal, so only {@code Never} and {@code IfAvailable} (which behave alike
 * there) are accepted and {@code Always}, which could never work, is rejected.
 */
public final class AgentConfigParser {
  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .build();

  private static final List<String> TOP_KEYS = List.of(
      "MachineName",
      "Cluster",
      "Kubelet",
      "CRI",
      "CNI",
      "OCIImage",
      "Attest",
      "Downloads",
      "LocalDNS");
  private static final List<String> CLUSTER_KEYS = List.of("CaCertBase64", "ClusterDNS", "Version");
  private static final List<String> KUBELET_KEYS =
      List.of("ApiServer", "Auth", "Labels", "RegisterWithTaints");
  private static final List<String> AUTH_KEYS = List.of("BootstrapToken", "ExecCredential");
  private static final List<String> EXEC_KEYS = List.of(
      "command",
      "args",
      "env",
      "apiVersion",
      "installHint",
      "provideClusterInfo",
      "interactiveMode");
  private static final List<String> ENV_KEYS = List.of("name", "value");
  private static final List<String> CRI_KEYS = List.of("Containerd", "Runc");
  private static final List<String> VERSION_KEYS = List.of("Version");
  private static final List<String> CNI_KEYS = List.of("PluginVersion");
  private static final List<String> ATTEST_KEYS = List.of("URL");
  private static final List<String> DOWNLOAD_KEYS =
      List.of("BaseURL", "URL", "Version", "SHA256", "SHA256URL", "AllowUnverified");
  static final String KUBERNETES_PINS_REASON =
      "must be an object of kubelet, kubectl and kube-proxy digests (Kubernetes publishes one per binary)";
  private static final List<String> LOCALDNS_KEYS =
      List.of("Version", "BindAddress", "InterfaceName", "ClusterDomain");

  /** Where a key the upstream documentation misplaces really belongs, by misplaced path. */
  private static final Map<String, String> MISPLACED = Map.of(
      "Kubelet.BootstrapToken", "Kubelet.Auth.BootstrapToken",
      "Kubelet.ExecCredential", "Kubelet.Auth.ExecCredential");

  static final String INTERACTIVE_MODE_REASON =
      "must be Never or IfAvailable (kubelet runs the plugin without a terminal), got ";

  private AgentConfigParser() {}

  /**
   * The normalised configuration {@code json} holds.
   *
   * @throws InvalidConfigException listing every syntax, type and unknown-key problem
   */
  public static AgentConfig parse(byte[] json) {
    Bound bound = bind(json);
    if (!bound.violations().isEmpty()) {
      throw new InvalidConfigException(bound.violations());
    }
    return bound.config().orElseThrow();
  }

  /**
   * Checks {@code config} for a host of architecture {@code hostArch}.
   *
   * @throws InvalidConfigException listing every violation
   */
  public static void validate(AgentConfig config, String hostArch) {
    ConfigValidator.validate(config, hostArch);
  }

  /**
   * The normalised configuration {@code json} holds, checked by {@link ConfigValidator} for a host
   * of architecture {@code hostArch}.
   *
   * @throws InvalidConfigException listing every problem: syntax, types, unknown keys and every
   *     validation rule, in one error
   */
  public static AgentConfig parseAndValidate(byte[] json, String hostArch) {
    Bound bound = bind(json);
    List<ConfigViolation> all = new ArrayList<>(bound.violations());
    bound.config().ifPresent(config -> {
      for (ConfigViolation v : ConfigValidator.violations(config, hostArch)) {
        if (all.stream().noneMatch(shape -> related(shape.path(), v.path()))) {
          all.add(v);
        }
      }
    });
    if (!all.isEmpty()) {
      throw new InvalidConfigException(all);
    }
    return bound.config().orElseThrow();
  }

  /**
   * A value already reported as mistyped is not reported again as, say, missing. Shape paths use
   * the key as written, rule paths the canonical spelling, so they are compared ignoring case.
   */
  private static boolean related(String shapePath, String rulePath) {
    String a = shapePath.toLowerCase(Locale.ROOT);
    String b = rulePath.toLowerCase(Locale.ROOT);
    return a.equals(b) || b.startsWith(a + ".") || b.startsWith(a + "[");
  }

  /** The configuration as far as it could be read, and what was wrong with its shape. */
  record Bound(Optional<AgentConfig> config, List<ConfigViolation> violations) {}

  static Bound bind(byte[] json) {
    List<ConfigViolation> violations = new ArrayList<>();
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (JacksonException e) {
      JsonLocation at = e.getLocation();
      String where =
          at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
      violations.add(
          new ConfigViolation("$", "is not valid JSON: " + e.getOriginalMessage() + where));
      return new Bound(Optional.empty(), violations);
    } catch (IOException e) {
      violations.add(new ConfigViolation("$", "could not be read: " + e.getMessage()));
      return new Bound(Optional.empty(), violations);
    }
    if (root == null || root.isMissingNode()) {
      violations.add(new ConfigViolation("$", "is empty"));
      return new Bound(Optional.empty(), violations);
    }
    if (!root.isObject()) {
      violations.add(new ConfigViolation("$", "must be a JSON object"));
      return new Bound(Optional.empty(), violations);
    }
    Obj top = new Obj(root, "", TOP_KEYS, violations);
    AgentConfig config = new AgentConfig(
        top.string("MachineName"),
        cluster(top.object("Cluster", CLUSTER_KEYS)),
        kubelet(top.object("Kubelet", KUBELET_KEYS), violations),
        cri(top.object("CRI", CRI_KEYS)),
        new AgentConfig.Cni(top.object("CNI", CNI_KEYS).string("PluginVersion")),
        top.string("OCIImage"),
        new AgentConfig.Attest(top.object("Attest", ATTEST_KEYS).string("URL")),
        downloads(top.object("Downloads", downloadsKeys())),
        localDns(top.object("LocalDNS", LOCALDNS_KEYS)));
    return new Bound(Optional.of(config.normalized()), violations);
  }

  private static List<String> downloadsKeys() {
    List<String> keys = new ArrayList<>();
    for (DownloadArtifact a : DownloadArtifact.values()) {
      keys.add(a.jsonName());
    }
    return keys;
  }

  private static AgentConfig.Cluster cluster(Obj o) {
    return new AgentConfig.Cluster(
        o.string("CaCertBase64"), o.string("ClusterDNS"), o.string("Version"));
  }

  private static AgentConfig.Kubelet kubelet(Obj o, List<ConfigViolation> violations) {
    Obj auth = o.object("Auth", AUTH_KEYS);
    Optional<KubeletAuth.ExecCredential> exec =
        auth.optionalObject("ExecCredential", EXEC_KEYS).map(AgentConfigParser::exec);
    TreeMap<String, String> labels = new TreeMap<>();
    o.optionalObject("Labels", null)
        .ifPresent(l -> l.forEachEntry((key, path, value) -> {
          if (value.isNull()) {
            labels.put(key, "");
          } else if (value.isTextual()) {
            labels.put(key, value.textValue());
          } else {
            violations.add(new ConfigViolation(path, "must be a string"));
          }
        }));
    return new AgentConfig.Kubelet(
        o.string("ApiServer"),
        new AgentConfig.Auth(auth.string("BootstrapToken"), exec),
        labels,
        o.strings("RegisterWithTaints"));
  }

  private static KubeletAuth.ExecCredential exec(Obj o) {
    List<KubeletAuth.EnvVar> env = new ArrayList<>();
    for (Obj e : o.objects("env", ENV_KEYS)) {
      env.add(new KubeletAuth.EnvVar(e.string("name"), e.string("value")));
    }
    String interactiveMode = o.string("interactiveMode");
    if (!interactiveMode.isEmpty()
        && !interactiveMode.equals("Never")
        && !interactiveMode.equals("IfAvailable")) {
      o.violation("interactiveMode", INTERACTIVE_MODE_REASON + ConfigText.quote(interactiveMode));
    }
    return new KubeletAuth.ExecCredential(
        o.string("command"),
        o.strings("args"),
        env,
        o.string("apiVersion"),
        o.string("installHint"),
        o.bool("provideClusterInfo"));
  }

  private static AgentConfig.Cri cri(Obj o) {
    return new AgentConfig.Cri(
        o.object("Containerd", VERSION_KEYS).string("Version"),
        o.object("Runc", VERSION_KEYS).string("Version"));
  }

  private static AgentConfig.Downloads downloads(Obj o) {
    Map<DownloadArtifact, AgentConfig.Download> byArtifact = new LinkedHashMap<>();
    for (DownloadArtifact a : DownloadArtifact.values()) {
      Obj d = o.object(a.jsonName(), DOWNLOAD_KEYS);
      byArtifact.put(
          a,
          new AgentConfig.Download(
              d.string("BaseURL"),
              d.string("URL"),
              d.string("Version"),
              pins(a, d),
              d.bool("AllowUnverified"),
              d.string("SHA256URL")));
    }
    return new AgentConfig.Downloads(
        byArtifact.get(DownloadArtifact.KUBERNETES),
        byArtifact.get(DownloadArtifact.CONTAINERD),
        byArtifact.get(DownloadArtifact.RUNC),
        byArtifact.get(DownloadArtifact.CNI),
        byArtifact.get(DownloadArtifact.CRICTL),
        byArtifact.get(DownloadArtifact.LOCALDNS));
  }

  /** {@code SHA256}: one digest, or for Kubernetes an object of one digest per binary. */
  private static TreeMap<String, String> pins(DownloadArtifact artifact, Obj download) {
    TreeMap<String, String> pins = new TreeMap<>();
    if (artifact != DownloadArtifact.KUBERNETES) {
      String single = download.string("SHA256");
      if (!single.isEmpty()) {
        pins.put(AgentConfig.Download.SINGLE_FILE, single);
      }
      return pins;
    }
    if (download.isSet("SHA256") && !download.isObject("SHA256")) {
      download.violation("SHA256", KUBERNETES_PINS_REASON);
      return pins;
    }
    download.optionalObject("SHA256", DownloadArtifact.KUBERNETES_BINARIES).ifPresent(binaries -> {
      for (String binary : DownloadArtifact.KUBERNETES_BINARIES) {
        String hex = binaries.string(binary);
        if (!hex.isEmpty()) {
          pins.put(binary, hex);
        }
      }
    });
    return pins;
  }

  private static AgentConfig.LocalDns localDns(Obj o) {
    return new AgentConfig.LocalDns(
        o.string("Version"),
        o.string("BindAddress"),
        o.string("InterfaceName"),
        o.string("ClusterDomain"));
  }

  /**
   * One JSON object being read: its keys resolved case-insensitively against the known ones,
   * unknown and duplicate keys reported once, type mismatches reported with their path and read
   * as "not set". A missing object reads as an empty one.
   */
  private static final class Obj {
    private final String path;
    private final List<ConfigViolation> violations;
    private final Map<String, JsonNode> fields = new LinkedHashMap<>();
    private final Map<String, String> spelling = new LinkedHashMap<>();

    /** @param known the known keys, or {@code null} for a map whose keys are data */
    Obj(JsonNode node, String path, List<String> known, List<ConfigViolation> violations) {
      this.path = path;
      this.violations = violations;
      if (node == null) {
        return;
      }
      node.properties().forEach(e -> {
        String key = e.getKey();
        String canonical = known == null
            ? key
            : known.stream().filter(k -> k.equalsIgnoreCase(key)).findFirst().orElse(null);
        String keyPath = ConfigText.child(path, key);
        if (canonical == null) {
          String misplaced = MISPLACED.get(keyPath);
          violations.add(new ConfigViolation(
              keyPath,
              misplaced != null
                  ? "unknown key; it belongs at " + misplaced
                  : "unknown key; expected one of: " + String.join(", ", known)));
        } else if (fields.containsKey(canonical)) {
          violations.add(new ConfigViolation(
              keyPath,
              "duplicate key: " + ConfigText.child(path, spelling.get(canonical))
                  + " is already set (keys match case-insensitively)"));
        } else {
          fields.put(canonical, e.getValue());
          spelling.put(canonical, key);
        }
      });
    }

    String pathOf(String key) {
      return ConfigText.child(path, spelling.getOrDefault(key, key));
    }

    void violation(String key, String reason) {
      violations.add(new ConfigViolation(pathOf(key), reason));
    }

    private JsonNode value(String key) {
      JsonNode v = fields.get(key);
      return v == null || v.isNull() ? null : v;
    }

    boolean isSet(String key) {
      return value(key) != null;
    }

    boolean isObject(String key) {
      JsonNode v = value(key);
      return v != null && v.isObject();
    }

    String string(String key) {
      JsonNode v = value(key);
      if (v == null) {
        return "";
      }
      if (!v.isTextual()) {
        violation(key, "must be a string");
        return "";
      }
      return v.textValue();
    }

    boolean bool(String key) {
      JsonNode v = value(key);
      if (v == null) {
        return false;
      }
      if (!v.isBoolean()) {
        violation(key, "must be true or false");
        return false;
      }
      return v.booleanValue();
    }

    Obj object(String key, List<String> known) {
      return optionalObject(key, known)
          .orElseGet(() -> new Obj(null, pathOf(key), known, violations));
    }

    Optional<Obj> optionalObject(String key, List<String> known) {
      JsonNode v = value(key);
      if (v == null) {
        return Optional.empty();
      }
      if (!v.isObject()) {
        violation(key, "must be an object");
        return Optional.empty();
      }
      return Optional.of(new Obj(v, pathOf(key), known, violations));
    }

    List<String> strings(String key) {
      List<String> out = new ArrayList<>();
      forEachElement(key, (element, elementPath) -> {
        if (element.isTextual()) {
          out.add(element.textValue());
        } else {
          violations.add(new ConfigViolation(elementPath, "must be a string"));
        }
      });
      return out;
    }

    List<Obj> objects(String key, List<String> known) {
      List<Obj> out = new ArrayList<>();
      forEachElement(key, (element, elementPath) -> {
        if (element.isObject()) {
          out.add(new Obj(element, elementPath, known, violations));
        } else {
          violations.add(new ConfigViolation(elementPath, "must be an object"));
        }
      });
      return out;
    }

    private void forEachElement(String key, BiConsumer<JsonNode, String> action) {
      JsonNode v = value(key);
      if (v == null) {
        return;
      }
      if (!v.isArray()) {
        violation(key, "must be an array");
        return;
      }
      for (int i = 0; i < v.size(); i++) {
        action.accept(v.get(i), ConfigText.index(pathOf(key), i));
      }
    }

    /** For maps whose keys are data: every entry with its path {@code parent["key"]}. */
    void forEachEntry(EntryAction action) {
      fields.forEach((key, value) -> action.accept(key, ConfigText.entry(path, key), value));
    }
  }

  @FunctionalInterface
  private interface EntryAction {
    void accept(String key, String path, JsonNode value);
  }
}
