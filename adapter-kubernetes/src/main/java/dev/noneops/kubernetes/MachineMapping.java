package dev.noneops.kubernetes;

import dev.noneops.ports.machine.AgentSpec;
import dev.noneops.ports.machine.DownloadSource;
import dev.noneops.ports.machine.KubernetesSpec;
import dev.noneops.ports.machine.Machine;
import dev.noneops.ports.machine.MachineArtifact;
import dev.noneops.ports.machine.MachineCondition;
import dev.noneops.ports.machine.MachineOperations;
import dev.noneops.ports.machine.MachinePhase;
import dev.noneops.ports.machine.MachineSpec;
import dev.noneops.ports.machine.MachineStatus;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Between the object the API server holds and the port's value types. The object stays a
 * generic resource (a tree of maps) rather than a typed class: reading takes only the fields the
 * port models and tolerates any other, and a status write is a merge patch of exactly those
 * fields, so whatever a newer CRD or another controller put in the object survives this adapter.
 */
final class MachineMapping {
  static final String GROUP = "unbounded-cloud.io";
  static final String VERSION = "v1alpha3";
  static final String KIND = "Machine";
  static final String PLURAL = "machines";

  static final ResourceDefinitionContext CONTEXT = new ResourceDefinitionContext.Builder()
      .withGroup(GROUP)
      .withVersion(VERSION)
      .withKind(KIND)
      .withPlural(PLURAL)
      .withNamespaced(false)
      .build();

  private MachineMapping() {}

  // ---- from the object ----

  static Machine toMachine(GenericKubernetesResource resource) {
    ObjectMeta meta = resource.getMetadata();
    Map<String, Object> props = resource.getAdditionalProperties();
    String rv = meta.getResourceVersion() == null ? "" : meta.getResourceVersion();
    return new Machine(
        meta.getName(), rv, toSpec(map(props.get("spec"))), toStatus(map(props.get("status"))));
  }

  static MachineSpec toSpec(Map<String, Object> spec) {
    Map<String, Object> k8s = map(spec.get("kubernetes"));
    Map<String, String> labels = new LinkedHashMap<>();
    map(k8s.get("nodeLabels")).forEach((key, value) -> labels.put(key, string(value)));
    List<String> taints = new ArrayList<>();
    list(k8s.get("registerWithTaints")).forEach(t -> taints.add(string(t)));
    KubernetesSpec kubernetes = new KubernetesSpec(
        string(k8s.get("version")),
        labels,
        taints,
        string(map(k8s.get("bootstrapTokenRef")).get("name")));

    Map<String, Object> agent = map(spec.get("agent"));
    Map<String, Object> downloads = map(agent.get("downloads"));
    Map<MachineArtifact, DownloadSource> sources = new EnumMap<>(MachineArtifact.class);
    for (MachineArtifact artifact : MachineArtifact.values()) {
      if (downloads.containsKey(artifact.key())) {
        Map<String, Object> d = map(downloads.get(artifact.key()));
        sources.put(
            artifact,
            new DownloadSource(
                string(d.get("baseURL")), string(d.get("url")), string(d.get("version"))));
      }
    }
    return new MachineSpec(
        kubernetes,
        new AgentSpec(string(agent.get("image")), sources),
        toOperations(map(spec.get("operations"))));
  }

  static MachineStatus toStatus(Map<String, Object> status) {
    List<MachineCondition> conditions = new ArrayList<>();
    for (Object item : list(status.get("conditions"))) {
      Map<String, Object> c = map(item);
      String type = string(c.get("type"));
      if (type.isEmpty() || conditions.stream().anyMatch(x -> x.type().equals(type))) {
        continue; // a condition without a type, or a second one of a type, says nothing usable
      }
      conditions.add(new MachineCondition(
          type,
          MachineCondition.Status.fromWord(string(c.get("status"))),
          string(c.get("reason")),
          string(c.get("message")),
          time(c.get("lastTransitionTime"))));
    }
    return new MachineStatus(
        MachinePhase.fromWord(string(status.get("phase"))),
        toOperations(map(status.get("operations"))),
        conditions);
  }

  private static MachineOperations toOperations(Map<String, Object> ops) {
    return new MachineOperations(
        Math.max(0, number(ops.get("repaveCounter"))),
        Math.max(0, number(ops.get("rebootCounter"))));
  }

  // ---- to the object ----

  /** A new Machine object with {@code spec} and no status, empty fields left out. */
  static GenericKubernetesResource newMachine(String name, MachineSpec spec) {
    GenericKubernetesResource resource = new GenericKubernetesResource();
    resource.setApiVersion(GROUP + "/" + VERSION);
    resource.setKind(KIND);
    ObjectMeta meta = new ObjectMeta();
    meta.setName(name);
    resource.setMetadata(meta);
    resource.setAdditionalProperty("spec", specTree(spec));
    return resource;
  }

  private static Map<String, Object> specTree(MachineSpec spec) {
    Map<String, Object> k8s = new LinkedHashMap<>();
    putIfSet(k8s, "version", spec.kubernetes().version());
    if (!spec.kubernetes().nodeLabels().isEmpty()) {
      k8s.put("nodeLabels", new LinkedHashMap<>(spec.kubernetes().nodeLabels()));
    }
    if (!spec.kubernetes().registerWithTaints().isEmpty()) {
      k8s.put("registerWithTaints", new ArrayList<>(spec.kubernetes().registerWithTaints()));
    }
    if (!spec.kubernetes().bootstrapTokenRef().isEmpty()) {
      k8s.put("bootstrapTokenRef", Map.of("name", spec.kubernetes().bootstrapTokenRef()));
    }
    Map<String, Object> agent = new LinkedHashMap<>();
    putIfSet(agent, "image", spec.agent().image());
    if (!spec.agent().downloads().isEmpty()) {
      Map<String, Object> downloads = new LinkedHashMap<>();
      spec.agent().downloads().forEach((artifact, source) -> {
        Map<String, Object> d = new LinkedHashMap<>();
        putIfSet(d, "baseURL", source.baseURL());
        putIfSet(d, "url", source.url());
        putIfSet(d, "version", source.version());
        downloads.put(artifact.key(), d);
      });
      agent.put("downloads", downloads);
    }
    Map<String, Object> tree = new LinkedHashMap<>();
    tree.put("kubernetes", k8s);
    if (!agent.isEmpty()) {
      tree.put("agent", agent);
    }
    tree.put("operations", operationsTree(spec.operations()));
    return tree;
  }

  /**
   * The merge patch that takes {@code current}'s status to {@code next}, with {@code current}'s
   * resourceVersion as its precondition: the API server refuses it with a conflict when the object
   * changed since it was read. Only the modelled fields are in it; the others stay as stored. A
   * condition keeps the fields of its stored self that the port does not model.
   */
  static Map<String, Object> statusPatch(
      Machine current, Map<String, Object> storedStatus, MachineStatus next) {
    Map<String, Object> status = new LinkedHashMap<>();
    if (next.phase() == MachinePhase.UNSET) {
      status.put("phase", null);
    } else if (next.phase() != MachinePhase.OTHER) {
      status.put("phase", next.phase().word());
    }
    status.put("operations", operationsTree(next.operations()));
    List<Object> stored = list(storedStatus.get("conditions"));
    List<Object> conditions = new ArrayList<>();
    for (MachineCondition c : next.conditions()) {
      Map<String, Object> tree = new LinkedHashMap<>();
      for (Object item : stored) {
        Map<String, Object> old = map(item);
        if (c.type().equals(string(old.get("type")))) {
          tree.putAll(old);
          break;
        }
      }
      tree.put("type", c.type());
      tree.put("status", c.status().word());
      tree.put("reason", c.reason());
      tree.put("message", c.message());
      tree.put("lastTransitionTime", c.lastTransitionTime().toString());
      conditions.add(tree);
    }
    status.put("conditions", conditions);
    Map<String, Object> metadata = new LinkedHashMap<>();
    metadata.put("resourceVersion", current.resourceVersion());
    Map<String, Object> patch = new LinkedHashMap<>();
    patch.put("metadata", metadata);
    patch.put("status", status);
    return patch;
  }

  static Map<String, Object> statusTree(GenericKubernetesResource resource) {
    return map(resource.getAdditionalProperties().get("status"));
  }

  private static Map<String, Object> operationsTree(MachineOperations ops) {
    Map<String, Object> tree = new LinkedHashMap<>();
    tree.put("repaveCounter", ops.repaveCounter());
    tree.put("rebootCounter", ops.rebootCounter());
    return tree;
  }

  // ---- the tree's leaves, tolerant of what is absent or of another type ----

  private static void putIfSet(Map<String, Object> tree, String key, String value) {
    if (!value.isEmpty()) {
      tree.put(key, value);
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object value) {
    return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
  }

  private static List<Object> list(Object value) {
    return value instanceof List<?> l ? new ArrayList<>(l) : List.of();
  }

  private static String string(Object value) {
    return value == null ? "" : value.toString();
  }

  private static long number(Object value) {
    if (value instanceof Number n) {
      return n.longValue();
    }
    try {
      return value == null ? 0 : Long.parseLong(value.toString());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static Instant time(Object value) {
    try {
      return value == null ? Instant.EPOCH : Instant.parse(value.toString());
    } catch (DateTimeParseException e) {
      return Instant.EPOCH;
    }
  }
}
