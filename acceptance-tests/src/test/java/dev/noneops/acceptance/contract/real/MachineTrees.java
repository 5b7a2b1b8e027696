package dev.noneops.acceptance.contract.real;

import dev.noneops.ports.machine.MachineSpec;
import java.util.LinkedHashMap;
import java.util.Map;

/** A Machine's spec as the object tree another client of the cluster writes. */
final class MachineTrees {
  private MachineTrees() {}

  static Map<String, Object> spec(MachineSpec spec) {
    Map<String, Object> kubernetes = new LinkedHashMap<>();
    kubernetes.put("version", spec.kubernetes().version());
    kubernetes.put("nodeLabels", new LinkedHashMap<>(spec.kubernetes().nodeLabels()));
    kubernetes.put("registerWithTaints", spec.kubernetes().registerWithTaints());
    kubernetes.put("bootstrapTokenRef", Map.of("name", spec.kubernetes().bootstrapTokenRef()));
    Map<String, Object> downloads = new LinkedHashMap<>();
    spec.agent()
        .downloads()
        .forEach((artifact, source) -> downloads.put(
            artifact.key(),
            Map.of("baseURL", source.baseURL(), "url", source.url(), "version", source.version())));
    Map<String, Object> agent = new LinkedHashMap<>();
    agent.put("image", spec.agent().image());
    agent.put("downloads", downloads);
    Map<String, Object> operations = new LinkedHashMap<>();
    operations.put("repaveCounter", spec.operations().repaveCounter());
    operations.put("rebootCounter", spec.operations().rebootCounter());
    Map<String, Object> tree = new LinkedHashMap<>();
    tree.put("kubernetes", kubernetes);
    tree.put("agent", agent);
    tree.put("operations", operations);
    return tree;
  }
}
