package dev.noneops.testkit.health;

import dev.noneops.ports.health.HealthProbes;
import dev.noneops.testkit.gate.PortGate;
import dev.noneops.testkit.time.VirtualClock;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * The {@link HealthProbes} port, controllable per URL and per DNS address. By default an HTTP
 * probe of a kubelet healthz URL (port 10248) answers while {@code kubelet.service} is active, and a
 * DNS probe answers while {@code localdns.service} is active; anything else is refused at once. A
 * probe set to {@link Answer#HANGS} costs its whole timeout on the virtual clock.
 */
public final class SimHealthProbes implements HealthProbes {
  private static final String PORT = "probes";

  /** How a probed endpoint behaves. */
  public enum Answer {
    /** Answers (HTTP 200, any DNS reply). */
    OK,
    /** Refuses the connection at once. */
    REFUSED,
    /** Never answers: the probe waits out its timeout. */
    HANGS
  }

  private final PortGate gate;
  private final VirtualClock clock;
  private final Predicate<String> unitActive;
  private final Map<URI, Answer> http = new HashMap<>();
  private final Map<String, Answer> dns = new HashMap<>();
  private Answer everyHttp;
  private Answer everyDns;

  /** @param unitActive whether a systemd unit is active right now */
  public SimHealthProbes(PortGate gate, VirtualClock clock, Predicate<String> unitActive) {
    this.gate = Objects.requireNonNull(gate, "gate");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.unitActive = Objects.requireNonNull(unitActive, "unitActive");
  }

  /** Fixes how {@code url} answers from now on. */
  public void setHttp(URI url, Answer answer) {
    synchronized (gate.monitor()) {
      http.put(Objects.requireNonNull(url, "url"), Objects.requireNonNull(answer, "answer"));
    }
  }

  /** Fixes how a DNS server at {@code address} answers from now on. */
  public void setDns(String address, Answer answer) {
    synchronized (gate.monitor()) {
      dns.put(Objects.requireNonNull(address, "address"), Objects.requireNonNull(answer, "answer"));
    }
  }

  /** Fixes how every HTTP endpoint without an answer of its own behaves (a kubelet that never gets healthy). */
  public void setEveryHttp(Answer answer) {
    synchronized (gate.monitor()) {
      everyHttp = Objects.requireNonNull(answer, "answer");
    }
  }

  /** Fixes how every DNS server without an answer of its own behaves. */
  public void setEveryDns(Answer answer) {
    synchronized (gate.monitor()) {
      everyDns = Objects.requireNonNull(answer, "answer");
    }
  }

  /** Back to the default behaviour (answers follow the units). */
  public void reset() {
    synchronized (gate.monitor()) {
      http.clear();
      dns.clear();
      everyHttp = null;
      everyDns = null;
    }
  }

  @Override
  public boolean httpOk(URI url, Duration timeout) {
    return gate.callUnchecked(PORT, "httpOk", false, PortGate.args(url), () -> {
      Answer answer = http.get(url);
      if (answer == null) {
        answer = everyHttp != null
            ? everyHttp
            : url.getPort() == 10248 ? byUnit("kubelet.service") : Answer.REFUSED;
      }
      return answered(answer, timeout);
    });
  }

  @Override
  public boolean dnsAnswers(String address, int port, String name, Duration timeout) {
    return gate.callUnchecked(PORT, "dnsAnswers", false, PortGate.args(address, port, name), () -> {
      Answer answer = dns.get(address);
      if (answer == null) {
        answer = everyDns != null ? everyDns : byUnit("localdns.service");
      }
      return answered(answer, timeout);
    });
  }

  private Answer byUnit(String unit) {
    return unitActive.test(unit) ? Answer.OK : Answer.REFUSED;
  }

  private boolean answered(Answer answer, Duration timeout) {
    return switch (answer) {
      case OK -> true;
      case REFUSED -> false;
      case HANGS -> {
        clock.advance(timeout);
        yield false;
      }
    };
  }
}
