package dev.noneops.ports.machine;

import java.util.Objects;

/** What the fleet wants of a Machine: its Kubernetes node, its agent, and operations to run. */
public record MachineSpec(
    KubernetesSpec kubernetes, AgentSpec agent, MachineOperations operations) {

  /** A spec with nothing set. */
  public static final MachineSpec EMPTY =
      new MachineSpec(KubernetesSpec.EMPTY, AgentSpec.EMPTY, MachineOperations.NONE);

  public MachineSpec {
    Objects.requireNonNull(kubernetes, "kubernetes");
    Objects.requireNonNull(agent, "agent");
    Objects.requireNonNull(operations, "operations");
  }

  public MachineSpec withKubernetes(KubernetesSpec value) {
    return new MachineSpec(value, agent, operations);
  }

  public MachineSpec withAgent(AgentSpec value) {
    return new MachineSpec(kubernetes, value, operations);
  }

  public MachineSpec withOperations(MachineOperations value) {
    return new MachineSpec(kubernetes, agent, value);
  }
}
