package dev.noneops.core.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Writes a configuration as JSON in the shape {@link AgentConfigParser} reads.
 *
 * <ul>
 *   <li>{@link #applied}: the applied-config file: the configuration the node runs with, 2-space
 *       indented, no trailing newline, without {@code Attest}. Unlike upstream's file it keeps the
 *       {@code Downloads} overrides: they are part of a version's name ({@code VersionFor}), so the
 *       applied config alone must name the version the node runs, or a rollback and a recovery
 *       could not find it. The none mode's file is its own, which older agents never read;
 *   <li>{@link #canonical}: the same content ({@code Downloads} included, {@code Attest} left
 *       out), compact, every object's keys sorted, the input of {@link ConfigDigest}. Two
 *       configurations that normalise equally have the same canonical form, however their files
 *       were formatted, and a configuration has the digest of the applied config written from it.
 * </ul>
 *
 * Unset optional keys are omitted as upstream's {@code omitempty} does; {@code CRI} and {@code CNI}
 * are always present, possibly empty.
 */
final class AgentConfigJson {
  private static final ObjectMapper MAPPER = JsonMapper.builder().build();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private AgentConfigJson() {}

  /** The applied-config file's bytes for {@code config} (normalised first). */
  public static byte[] applied(AgentConfig config) {
    DefaultIndenter indenter = new DefaultIndenter("  ", "\n");
    DefaultPrettyPrinter printer = new DefaultPrettyPrinter(Separators.createDefaultInstance()
            .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
            .withObjectEmptySeparator("")
            .withArrayEmptySeparator(""))
        .withObjectIndenter(indenter)
        .withArrayIndenter(indenter);
    try {
      return MAPPER.writer(printer).writeValueAsBytes(tree(config.normalized()));
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The canonical form of {@code config} (normalised first): compact UTF-8 JSON with sorted keys. */
  public static byte[] canonical(AgentConfig config) {
    try {
      return MAPPER.writeValueAsBytes(sorted(tree(config.normalized())));
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@link #canonical} as text. */
  public static String canonicalString(AgentConfig config) {
    return new String(canonical(config), StandardCharsets.UTF_8);
  }

  private static ObjectNode tree(AgentConfig c) {
    ObjectNode root = NODES.objectNode();
    putIfSet(root, "MachineName", c.machineName());

    ObjectNode cluster = root.putObject("Cluster");
    cluster.put("CaCertBase64", c.cluster().caCertBase64());
    cluster.put("ClusterDNS", c.cluster().clusterDns());
    cluster.put("Version", c.cluster().version());

    ObjectNode kubelet = root.putObject("Kubelet");
    kubelet.put("ApiServer", c.kubelet().apiServer());
    ObjectNode auth = kubelet.putObject("Auth");
    putIfSet(auth, "BootstrapToken", c.kubelet().auth().bootstrapToken());
    c.kubelet().auth().execCredential().ifPresent(exec -> {
      ObjectNode e = auth.putObject("ExecCredential");
      e.put("command", exec.command());
      if (!exec.args().isEmpty()) {
        ArrayNode args = e.putArray("args");
        exec.args().forEach(args::add);
      }
      if (!exec.env().isEmpty()) {
        ArrayNode env = e.putArray("env");
        exec.env().forEach(v -> env.addObject().put("name", v.name()).put("value", v.value()));
      }
      e.put("apiVersion", exec.apiVersion());
      putIfSet(e, "installHint", exec.installHint());
      if (exec.provideClusterInfo()) {
        e.put("provideClusterInfo", true);
      }
    });
    ObjectNode labels = kubelet.putObject("Labels");
    c.kubelet().labels().forEach(labels::put);
    ArrayNode taints = kubelet.putArray("RegisterWithTaints");
    c.kubelet().registerWithTaints().forEach(taints::add);

    ObjectNode cri = root.putObject("CRI");
    if (!c.cri().containerdVersion().isEmpty()) {
      cri.putObject("Containerd").put("Version", c.cri().containerdVersion());
    }
    if (!c.cri().runcVersion().isEmpty()) {
      cri.putObject("Runc").put("Version", c.cri().runcVersion());
    }
    ObjectNode cni = root.putObject("CNI");
    putIfSet(cni, "PluginVersion", c.cni().pluginVersion());
    putIfSet(root, "OCIImage", c.ociImage());

    ObjectNode dns = root.putObject("LocalDNS");
    putIfSet(dns, "Version", c.localDns().version());
    dns.put("BindAddress", c.localDns().bindAddress());
    dns.put("InterfaceName", c.localDns().interfaceName());
    dns.put("ClusterDomain", c.localDns().clusterDomain());

    ObjectNode downloads = NODES.objectNode();
    for (DownloadArtifact artifact : DownloadArtifact.values()) {
      AgentConfig.Download d = c.downloads().of(artifact);
      if (!d.isEmpty()) {
        ObjectNode source = downloads.putObject(artifact.jsonName());
        putIfSet(source, "BaseURL", d.baseUrl());
        putIfSet(source, "URL", d.url());
        putIfSet(source, "Version", d.version());
        if (artifact == DownloadArtifact.KUBERNETES) {
          if (!d.sha256().isEmpty()) {
            ObjectNode pins = source.putObject("SHA256");
            d.sha256().forEach(pins::put);
          }
        } else {
          d.pinned(AgentConfig.Download.SINGLE_FILE).ifPresent(hex -> source.put("SHA256", hex));
        }
        putIfSet(source, "SHA256URL", d.sha256Url());
        if (d.allowUnverified()) {
          source.put("AllowUnverified", true);
        }
      }
    }
    if (!downloads.isEmpty()) {
      root.set("Downloads", downloads);
    }
    return root;
  }

  private static void putIfSet(ObjectNode node, String key, String value) {
    if (!value.isEmpty()) {
      node.put(key, value);
    }
  }

  private static JsonNode sorted(JsonNode node) {
    if (node.isObject()) {
      List<String> names = new ArrayList<>();
      node.fieldNames().forEachRemaining(names::add);
      Collections.sort(names);
      ObjectNode out = NODES.objectNode();
      for (String name : names) {
        out.set(name, sorted(node.get(name)));
      }
      return out;
    }
    if (node.isArray()) {
      ArrayNode out = NODES.arrayNode();
      node.forEach(element -> out.add(sorted(element)));
      return out;
    }
    return node;
  }
}
