package dev.noneops.acceptance.contract.sim;

import dev.noneops.ports.machine.MachineResource;
import dev.noneops.ports.machine.MachineSpec;
import dev.noneops.ports.machine.MachineStatus;
import dev.noneops.testkit.contract.MachineResourceContract;
import dev.noneops.testkit.machine.SimMachineApi;
import java.util.function.UnaryOperator;

class SimulatedMachineResourceContractTest extends MachineResourceContract {
  private final SimMachineApi api = SimMachineApi.create();
  private final MachineResource resource = api.client();

  @Override
  protected MachineResource resource() {
    return resource;
  }

  @Override
  protected void putAsAnotherClient(String name, MachineSpec spec) {
    api.put(name, spec);
  }

  @Override
  protected void updateSpecAsAnotherClient(String name, UnaryOperator<MachineSpec> change) {
    api.updateSpec(name, change);
  }

  @Override
  protected void writeStatusAsAnotherClient(String name, UnaryOperator<MachineStatus> change) {
    api.writeStatus(name, change);
  }

  @Override
  protected void deleteAsAnotherClient(String name) {
    api.delete(name);
  }

  @Override
  protected void whileWatchesAreLost(ThrowingRunnable change) throws Exception {
    api.loseWatches();
    try {
      change.run();
    } finally {
      api.restoreWatches();
    }
  }

  @Override
  protected MachineResource resourceWithoutMachineType() {
    SimMachineApi bare = SimMachineApi.create();
    bare.removeMachineType();
    return bare.client();
  }
}
