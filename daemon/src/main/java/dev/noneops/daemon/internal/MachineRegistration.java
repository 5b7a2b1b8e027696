package dev.noneops.daemon.internal;

import dev.noneops.core.config.AgentConfig;
import dev.noneops.ports.machine.KubernetesSpec;
import dev.noneops.ports.machine.MachineResource;
import dev.noneops.ports.machine.MachineResourceException;
import dev.noneops.ports.machine.MachineSpec;
import java.io.IOException;

/**
 * Registers the node's {@code Machine} at daemon start, as the upstream daemon does: when the
 * configuration names a Machine and carries a bootstrap token, and no Machine of that name exists,
 * it creates a minimal one ({@code spec.kubernetes.bootstrapTokenRef.name} {@code
 * bootstrap-token-<token id>}, the configuration's node labels and taints); an existing Machine is
 * left as it is (whoever made it owns its spec). A cluster without the Machine CRD is its own
 * error.
 */
public final class MachineRegistration {
  /** What {@link #register} did. */
  public enum Outcome {
    /** The Machine did not exist; it was created. */
    CREATED,
    /** A Machine of that name exists: left as it is. */
    ALREADY_REGISTERED,
    /** The configuration names no Machine: nothing to register. */
    SKIPPED_NO_MACHINE_NAME,
    /** The configuration has no bootstrap token (an exec credential): upstream registers none. */
    SKIPPED_NO_BOOTSTRAP_TOKEN
  }

  private final MachineResource machines;

  public MachineRegistration(MachineResource machines) {
    this.machines = machines;
  }

  /**
   * Registers the Machine {@code config} names.
   *
   * @throws MachineCallException when the cluster has no Machine CRD, refuses the call or
   *     cannot be reached, or the name is not an object name
   */
  public Outcome register(AgentConfig config) {
    String name = config.machineName().trim();
    if (name.isEmpty()) {
      return Outcome.SKIPPED_NO_MACHINE_NAME;
    }
    String token = config.kubelet().auth().bootstrapToken();
    if (token.isEmpty()) {
      return Outcome.SKIPPED_NO_BOOTSTRAP_TOKEN;
    }
    try {
      if (machines.get(name).isPresent()) {
        return Outcome.ALREADY_REGISTERED;
      }
      return machines.create(name, minimalSpec(config))
          ? Outcome.CREATED
          : Outcome.ALREADY_REGISTERED;
    } catch (IllegalArgumentException e) {
      throw new MachineCallException(
          "MachineName '" + name + "' is not a Kubernetes object name: " + e.getMessage(), e);
    } catch (MachineResourceException e) {
      if (e.kind() == MachineResourceException.Kind.NO_MACHINE_RESOURCE_TYPE) {
        throw new MachineCallException(
            "cannot register Machine " + name + ": the cluster does not serve"
                + " machines.unbounded-cloud.io/v1alpha3 (is the Machine CRD installed?)",
            e);
      }
      throw new MachineCallException(
          "cannot register Machine " + name + " (" + e.kind() + "): " + e.getMessage(), e);
    } catch (IOException e) {
      throw new MachineCallException("cannot register Machine " + name + ": " + e.getMessage(), e);
    }
  }

  /** The minimal Machine of {@code config}: its token's Secret, its labels and taints. */
  public static MachineSpec minimalSpec(AgentConfig config) {
    return MachineSpec.EMPTY.withKubernetes(new KubernetesSpec(
        "",
        config.kubelet().labels(),
        config.kubelet().registerWithTaints(),
        bootstrapTokenRef(config.kubelet().auth().bootstrapToken())));
  }

  /** {@code bootstrap-token-<id>}: the Secret of a bootstrap token {@code <id>.<secret>}. */
  public static String bootstrapTokenRef(String token) {
    int dot = token.indexOf('.');
    return "bootstrap-token-" + (dot < 0 ? token : token.substring(0, dot));
  }
}
