package dev.noneops.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.ports.health.HealthProbes;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The {@link HealthProbes} contract (light): answers, refusals and silence never throw. */
public abstract class HealthProbesContract {
  private static final Duration TIMEOUT = Duration.ofSeconds(2);

  protected abstract HealthProbes probes();

  /** A URL that answers 200. */
  protected abstract URI healthyUrl() throws Exception;

  /** A URL that answers, but not 200 (or refuses). */
  protected abstract URI unhealthyUrl() throws Exception;

  /** A URL where nothing listens. */
  protected URI unreachableUrl() {
    return URI.create("http://127.0.0.1:1/healthz");
  }

  @Test
  void aHealthyEndpointIsOk() throws Exception {
    assertThat(probes().httpOk(healthyUrl(), TIMEOUT)).isTrue();
  }

  @Test
  void anUnhealthyEndpointIsNotOk() throws Exception {
    assertThat(probes().httpOk(unhealthyUrl(), TIMEOUT)).isFalse();
  }

  @Test
  void nothingListeningIsNotOkAndNoException() {
    assertThat(probes().httpOk(unreachableUrl(), TIMEOUT)).isFalse();
  }

  @Test
  void aDnsServerThatIsNotThereDoesNotAnswer() {
    assertThat(probes()
            .dnsAnswers(
                "127.0.0.1", 1, "kubernetes.default.svc.cluster.local", Duration.ofMillis(500)))
        .isFalse();
  }
}
