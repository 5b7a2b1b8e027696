package dev.noneops.cli;

import java.util.Map;
import java.util.Optional;

/**
 * The journal's {@code MESSAGE_ID} of each kind of event the agent logs: one stable 128-bit id
 * per operation and outcome, so {@code journalctl MESSAGE_ID=...} finds every rollback of every
 * version, and the catalog ({@code noneops.catalog}) explains the ones an operator acts on.
 */
public final class JournalMessageIds {
  /** {@code operation/outcome} → its id (32 lower-case hex digits, never changed once shipped). */
  public static final Map<String, String> IDS = Map.ofEntries(
      Map.entry("apply/applied", "5d742e16bc5e495a867315b800d1533b"),
      Map.entry("apply/failed", "67bba2b7a9e5425d9e6fe227e99d1f13"),
      Map.entry("upgrade/upgraded", "4b0963726fef4d91b28a9ef78697c904"),
      Map.entry("upgrade/rolled-back", "ef6e395a3703440aae279d3d31bf6a64"),
      Map.entry("upgrade/refused", "d4e77b89316a4fe1a867efaa4df1bb0a"),
      Map.entry("upgrade/failed", "981b892375534c2b8bb4686094bf3b51"),
      Map.entry("recovery/recovered", "606eea561c4742488f0cee3f4cf96ecd"),
      Map.entry("recovery/rolled-back", "0297067ccbfa41b9b984c75ad1b8f218"),
      Map.entry("recovery/failed", "e7164da08cbc4e48a6524dfdc6711080"),
      Map.entry("repave/applied", "547f36fbd0554ce09475a2100d2509c6"),
      Map.entry("repave/rolled-back", "7da8d6e2888f41bc8708fdea13f17fc2"),
      Map.entry("repave/refused", "c94dd8ed0bc041999bf7465fac5a34c8"),
      Map.entry("repave/failed", "cea7f25410034bba96f32c08b03d6146"),
      Map.entry("config/refused", "a9f9c74001f543b79c2151060697e620"));

  private JournalMessageIds() {}

  /** The id of {@code operation} ending with {@code outcome}, when it has one. */
  public static Optional<String> of(String operation, String outcome) {
    return Optional.ofNullable(IDS.get(operation + "/" + outcome));
  }
}
