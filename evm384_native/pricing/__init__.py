"""Gas prices fitted from measured time (EIP-7904's method, for EVMMAX and EVM384): time
whole programs whose counts of each operation vary, fit ns per operation by non-negative
least squares, convert at a throughput anchor (100 Mgas/s: 10 ns a gas), and reprice the
contracts and the adversarial programs with the result. ``evm384 price`` runs it all.

- :mod:`.nnls`: Lawson-Hanson NNLS and R^2 in numpy;
- :mod:`.programs`: the programs and their designs;
- :mod:`.measure`: the programs of each fit (:class:`Plan`), their timing and the fits
  (:class:`Fit`);
- :mod:`.anchor`: ns to gas (:class:`Anchor`), the fitted ``EvmmaxCosts`` and EVM384 schedule;
- :mod:`.adversarial`: the adversarial corpus (loops that make the most of each gas), whose
  EVMMAX programs are repriced;
- :mod:`.report`: a whole run (``price``) and its text (``render``); :mod:`.plot`: ``--plot``.
"""
from .anchor import Anchor, fitted_costs, fitted_schedule
from .measure import (DEFAULT, QUICK, Fit, Plan, Settings, fit, measure, measure_evm384,
                      measure_evmmax, plan_evm384, plan_evmmax)
from .nnls import nnls, r_squared

__all__ = ["Anchor", "DEFAULT", "Fit", "Plan", "QUICK", "Settings", "fit", "fitted_costs",
           "fitted_schedule", "measure", "measure_evm384", "measure_evmmax", "nnls",
           "plan_evm384", "plan_evmmax", "r_squared"]
