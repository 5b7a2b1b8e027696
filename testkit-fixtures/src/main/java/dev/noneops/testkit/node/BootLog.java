package dev.noneops.testkit.node;

import dev.noneops.testkit.systemd.UnitEvent;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one boot of a simulated host did to units, in the order the simulated systemd did it
 * ({@link SimulatedNode#boot()}): enough to tell whether the recovery gate's start job had ended
 * before any of the stack's units was touched.
 */
public record BootLog(List<UnitEvent> events) {
  public BootLog {
    events = List.copyOf(Objects.requireNonNull(events, "events"));
  }

  /** The events of {@code units} only, each as {@code "<unit> <event>"}, in order. */
  public List<String> of(String... units) {
    return of(Arrays.asList(units));
  }

  /** The events of {@code units} only, each as {@code "<unit> <event>"}, in order. */
  public List<String> of(Collection<String> units) {
    return events.stream()
        .filter(e -> units.contains(e.unit()))
        .map(UnitEvent::toString)
        .toList();
  }

  /**
   * Where {@code unit}'s first start job ended (it {@code started}, {@code failed} or its
   * condition failed) among {@link #events()}; empty when no start of it ended.
   */
  public Optional<Integer> startEnded(String unit) {
    for (int i = 0; i < events.size(); i++) {
      UnitEvent e = events.get(i);
      if (e.unit().equals(unit)
          && List.of("started", "failed", "condition-failed").contains(e.event())) {
        return Optional.of(i);
      }
    }
    return Optional.empty();
  }

  /** Where the first event of any of {@code units} is among {@link #events()}; empty when none has one. */
  public Optional<Integer> firstEventOf(Collection<String> units) {
    for (int i = 0; i < events.size(); i++) {
      if (units.contains(events.get(i).unit())) {
        return Optional.of(i);
      }
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return events.toString();
  }
}
