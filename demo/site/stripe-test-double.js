/* eslint-disable max-lines -- one test double of Stripe.js, plain ES5 served as is, with no build to join files */
/*
 * A local test double of the part of Stripe.js the checkout uses, for the demo pages and the tests: no network
 * beyond the reference server, no Stripe account. Never part of the production bundle, which loads the real
 * Stripe.js. A host page adds it before channel-elements.js:
 *
 *   <script src="http://localhost:8080/stripe-test-double.js"></script>
 *
 * It defines `window.Stripe` the way Stripe.js does, so `loadStripe` from `@stripe/stripe-js/pure` uses it instead
 * of injecting https://js.stripe.com (it only checks that window.Stripe exists; `Stripe.version` is the release
 * train that @stripe/stripe-js expects, so it does not warn about a version mismatch). Supported:
 *
 *   Stripe(publishableKey)                        (with or without `new`)
 *   stripe.elements() → elements.create('card', options) → a card element: mount(node or selector), on/once/off
 *     ('ready', 'change', 'focus', 'blur', 'escape'), focus(), blur(), clear(), update(options), unmount(),
 *     destroy(). It renders into the mount node's light DOM three labelled inputs, "Card number",
 *     "Expiry (MM / YY)" and "CVC", and an error area; the mount node gets Stripe's state classes
 *     (StripeElement, --empty, --focus, --complete, --invalid). Change events carry { elementType: 'card',
 *     empty, complete, brand, error? } with Stripe's validation messages.
 *   stripe.createPaymentMethod({ type: 'card', card, billing_details }) → { paymentMethod } | { error }
 *   stripe.confirmCardSetup(clientSecret, { payment_method: { card } | 'pm_…' }) → { setupIntent } | { error }
 *   stripe.confirmCardPayment(clientSecret, { payment_method: { card } | 'pm_…' }) → { paymentIntent } | { error }
 *
 * Card data goes only to the reference server's fake Stripe API (POST /__stripe/v1/..., server/dev/stripe.ts) on
 * the origin this script was loaded from, with the publishable key as Bearer. Test cards: 4242 4242 4242 4242
 * succeeds, 4000 0000 0000 0002 is declined, 4000 0000 0000 9995 has insufficient funds; any other valid number is
 * refused as incorrect. Plain script: no modules, no eval, no inline styles (the demo's CSP applies).
 */
(function () {
  'use strict';

  if (typeof window.Stripe === 'function' && window.Stripe.testDouble) return;

  var script = document.currentScript;
  var API_BASE = new URL('/__stripe/v1/', script && script.src ? script.src : window.location.href).href;

  /** Stripe.js's validation messages, by code. */
  var MESSAGES = {
    incomplete_number: 'Your card number is incomplete.',
    invalid_number: 'Your card number is invalid.',
    incomplete_expiry: "Your card's expiration date is incomplete.",
    invalid_expiry_month: "Your card's expiration month is invalid.",
    invalid_expiry_year: "Your card's expiration year is invalid.",
    invalid_expiry_year_past: "Your card's expiration year is in the past.",
    invalid_expiry_month_past: "Your card's expiration date is in the past.",
    incomplete_cvc: "Your card's security code is incomplete.",
  };
  var CONNECTION_ERROR = { type: 'api_connection_error', message: 'An error occurred with our connection to Stripe.' };

  function IntegrationError(message) {
    var error = new Error(message);
    error.name = 'IntegrationError';
    return error;
  }

  function digitsOf(text) {
    return String(text == null ? '' : text).replace(/\D/g, '');
  }

  function brandOf(digits) {
    if (/^4/.test(digits)) return 'visa';
    if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard';
    if (/^3[47]/.test(digits)) return 'amex';
    if (/^(6011|65)/.test(digits)) return 'discover';
    return 'unknown';
  }

  function passesLuhn(digits) {
    var total = 0;
    for (var i = 0; i < digits.length; i++) {
      var digit = Number(digits.charAt(digits.length - 1 - i));
      if (i % 2 === 1) {
        digit *= 2;
        if (digit > 9) digit -= 9;
      }
      total += digit;
    }
    return total % 10 === 0;
  }

  /** Card number as typed: groups of four (amex 4-6-5). */
  function formatNumber(digits) {
    var groups = brandOf(digits) === 'amex' ? [4, 6, 5] : [4, 4, 4, 4];
    var parts = [];
    var at = 0;
    for (var i = 0; i < groups.length && at < digits.length; i++) {
      parts.push(digits.slice(at, at + groups[i]));
      at += groups[i];
    }
    return parts.join(' ');
  }

  /** Expiry as typed ("1234", "12/34", "12 / 2034", "4") to its month and two-digit year. */
  function parseExpiry(raw) {
    var text = String(raw || '');
    if (text.indexOf('/') >= 0) {
      var halves = text.split('/');
      var year = digitsOf(halves[1]);
      return { month: digitsOf(halves[0]).slice(0, 2), year: year.length >= 4 ? year.slice(2, 4) : year.slice(0, 2) };
    }
    var digits = digitsOf(text);
    if (digits.length === 1 && digits > '1') return { month: '0' + digits, year: '' };
    return { month: digits.slice(0, 2), year: digits.slice(2, 4) };
  }

  function formatExpiry(expiry) {
    return expiry.year ? expiry.month + ' / ' + expiry.year : expiry.month;
  }

  /** Puts the caret after as many digits as were before it, once a field was reformatted. */
  function keepCaret(input, raw, caret) {
    var before = digitsOf(raw.slice(0, caret)).length;
    var value = input.value;
    var position = 0;
    for (var seen = 0; position < value.length && seen < before; position++) {
      if (/\d/.test(value.charAt(position))) seen++;
    }
    if (document.activeElement === input) input.setSelectionRange(position, position);
  }

  /**
   * The card's state: empty, complete, and the error to show. `all` checks every field as a submission does
   * (incomplete fields are errors); otherwise incomplete fields count only once the viewer left them.
   */
  function validate(fields, touched, all) {
    var number = fields.number;
    var brand = brandOf(number);
    var length = brand === 'amex' ? 15 : 16;
    var cvcLength = brand === 'amex' ? 4 : 3;
    var now = new Date();
    var thisYear = now.getFullYear() % 100;
    var month = Number(fields.expiry.month);
    var year = Number(fields.expiry.year);
    var problems = [];
    if (number.length >= length && !passesLuhn(number)) problems.push('invalid_number');
    else if (number.length < length && (all || touched.number)) problems.push('incomplete_number');
    if (fields.expiry.month.length === 2 && (month < 1 || month > 12)) problems.push('invalid_expiry_month');
    else if (fields.expiry.year.length === 2 && year < thisYear) problems.push('invalid_expiry_year_past');
    else if (fields.expiry.year.length === 2 && year === thisYear && month < now.getMonth() + 1)
      problems.push('invalid_expiry_month_past');
    else if (fields.expiry.year.length === 2 && year > thisYear + 50) problems.push('invalid_expiry_year');
    else if ((fields.expiry.month.length < 2 || fields.expiry.year.length < 2) && (all || touched.expiry))
      problems.push('incomplete_expiry');
    if (fields.cvc.length < cvcLength && (all || touched.cvc)) problems.push('incomplete_cvc');
    var code = problems[0];
    var complete =
      number.length >= length &&
      passesLuhn(number) &&
      fields.expiry.month.length === 2 &&
      fields.expiry.year.length === 2 &&
      fields.cvc.length >= cvcLength &&
      !code;
    return {
      empty: !number && !fields.expiry.month && !fields.expiry.year && !fields.cvc,
      complete: complete,
      brand: brand,
      error: code ? { type: 'validation_error', code: code, message: MESSAGES[code] } : undefined,
    };
  }

  /** Internal access to a card element's data, for the Stripe instance that created it. */
  var internals = new WeakMap();
  var nextId = 0;

  function createCardElement(stripe, group, options) {
    var id = 'stripe-double-' + ++nextId;
    var fields = { number: '', expiry: { month: '', year: '' }, cvc: '' };
    var touched = { number: false, expiry: false, cvc: false };
    var listeners = {};
    var settings = Object.assign({}, options);
    var mountNode = null;
    var root = null;
    var inputs = null;
    var errorArea = null;
    var destroyed = false;
    var state = validate(fields, touched, false);

    var classNames = function () {
      var custom = settings.classes || {};
      return {
        base: custom.base || 'StripeElement',
        empty: custom.empty || 'StripeElement--empty',
        focus: custom.focus || 'StripeElement--focus',
        complete: custom.complete || 'StripeElement--complete',
        invalid: custom.invalid || 'StripeElement--invalid',
      };
    };

    function emit(type, detail) {
      (listeners[type] || []).slice().forEach(function (listener) {
        if (listener.once) element.off(type, listener.handler);
        listener.handler(Object.assign({ elementType: 'card' }, detail || {}));
      });
    }

    function alive() {
      if (destroyed) throw IntegrationError('This Element has already been destroyed. Please create a new one.');
    }

    /** Shows the state: classes on the mount node, the error text, the inputs' validity. */
    function render() {
      if (!mountNode) return;
      var names = classNames();
      var focused = root && root.contains(document.activeElement);
      mountNode.classList.add(names.base);
      mountNode.classList.toggle(names.empty, state.empty);
      mountNode.classList.toggle(names.complete, state.complete);
      mountNode.classList.toggle(names.invalid, Boolean(state.error));
      mountNode.classList.toggle(names.focus, Boolean(focused));
      errorArea.textContent = state.error ? state.error.message : '';
      var field = state.error
        ? /number/.test(state.error.code)
          ? 'number'
          : /cvc/.test(state.error.code)
            ? 'cvc'
            : 'expiry'
        : '';
      ['number', 'expiry', 'cvc'].forEach(function (name) {
        if (field === name) inputs[name].setAttribute('aria-invalid', 'true');
        else inputs[name].removeAttribute('aria-invalid');
        inputs[name].disabled = Boolean(settings.disabled);
      });
    }

    /** Recomputes the state and fires change when anything a listener sees changed. */
    function update(all) {
      var previous = state;
      state = validate(fields, touched, all);
      render();
      var changed =
        previous.empty !== state.empty ||
        previous.complete !== state.complete ||
        previous.brand !== state.brand ||
        (previous.error && previous.error.code) !== (state.error && state.error.code);
      if (changed || !all)
        emit('change', {
          empty: state.empty,
          complete: state.complete,
          brand: state.brand,
          error: state.error,
          value: { postalCode: '' },
        });
    }

    function field(name, label, autocomplete, placeholder) {
      var wrapper = document.createElement('label');
      wrapper.className = 'stripe-double-field';
      wrapper.style.display = 'grid';
      wrapper.style.gap = '4px';
      var text = document.createElement('span');
      text.textContent = label;
      var input = document.createElement('input');
      input.type = 'text';
      input.id = id + '-' + name;
      input.name = name === 'number' ? 'cardnumber' : name === 'expiry' ? 'exp-date' : 'cvc';
      input.autocomplete = autocomplete;
      input.inputMode = 'numeric';
      input.spellcheck = false;
      input.placeholder = placeholder;
      input.setAttribute('aria-describedby', id + '-error');
      input.style.font = 'inherit';
      input.style.minWidth = '0';
      wrapper.append(text, input);
      input.addEventListener('input', function () {
        var raw = input.value;
        var caret = input.selectionStart == null ? raw.length : input.selectionStart;
        if (name === 'number') {
          var digits = digitsOf(raw);
          fields.number = digits.slice(0, brandOf(digits) === 'amex' ? 15 : 16);
          input.value = formatNumber(fields.number);
        } else if (name === 'expiry') {
          fields.expiry = parseExpiry(raw);
          input.value = formatExpiry(fields.expiry);
        } else {
          fields.cvc = digitsOf(raw).slice(0, 4);
          input.value = fields.cvc;
        }
        keepCaret(input, raw, caret);
        update(false);
      });
      input.addEventListener('focus', function () {
        render();
        emit('focus');
      });
      input.addEventListener('blur', function () {
        // Leaving a field that has something in it shows whether it is incomplete, like Stripe.
        if (input.value !== '') touched[name] = true;
        update(false);
        if (!root.contains(document.activeElement)) emit('blur');
      });
      input.addEventListener('keydown', function (event) {
        if (event.key === 'Escape') emit('escape');
      });
      inputs[name] = input;
      return wrapper;
    }

    function build() {
      root = document.createElement('div');
      root.className = 'stripe-double';
      root.style.display = 'grid';
      root.style.gridTemplateColumns = 'minmax(0, 2fr) minmax(0, 1fr) minmax(0, 1fr)';
      root.style.gap = '8px';
      inputs = {};
      root.append(
        field('number', 'Card number', 'cc-number', '1234 1234 1234 1234'),
        field('expiry', 'Expiry (MM / YY)', 'cc-exp', 'MM / YY'),
        field('cvc', 'CVC', 'cc-csc', 'CVC'),
      );
      errorArea = document.createElement('p');
      errorArea.id = id + '-error';
      errorArea.className = 'stripe-double-error';
      errorArea.setAttribute('aria-live', 'polite');
      errorArea.style.gridColumn = '1 / -1';
      errorArea.style.margin = '0';
      root.append(errorArea);
      inputs.number.value = formatNumber(fields.number);
      inputs.expiry.value = formatExpiry(fields.expiry);
      inputs.cvc.value = fields.cvc;
    }

    var element = {
      mount: function (target) {
        alive();
        var node = typeof target === 'string' ? document.querySelector(target) : target;
        if (!node || node.nodeType !== 1) {
          throw IntegrationError(
            'The selector you specified (' +
              String(target) +
              ') applies to no DOM elements that are currently on the page. Make sure the element exists on the page before calling mount().',
          );
        }
        if (mountNode) element.unmount();
        mountNode = node;
        build();
        mountNode.append(root);
        render();
        setTimeout(function () {
          if (mountNode === node) emit('ready');
        }, 0);
      },
      unmount: function () {
        alive();
        if (!mountNode) return;
        var names = classNames();
        root.remove();
        [names.base, names.empty, names.focus, names.complete, names.invalid].forEach(function (name) {
          mountNode.classList.remove(name);
        });
        mountNode = null;
        root = null;
      },
      destroy: function () {
        alive();
        element.unmount();
        destroyed = true;
        listeners = {};
        group.forget(element);
      },
      on: function (type, handler) {
        (listeners[type] = listeners[type] || []).push({ handler: handler, once: false });
        return element;
      },
      once: function (type, handler) {
        (listeners[type] = listeners[type] || []).push({ handler: handler, once: true });
        return element;
      },
      off: function (type, handler) {
        listeners[type] = (listeners[type] || []).filter(function (listener) {
          return handler !== undefined && listener.handler !== handler;
        });
        return element;
      },
      focus: function () {
        alive();
        if (inputs && mountNode) inputs.number.focus();
      },
      blur: function () {
        alive();
        if (root && root.contains(document.activeElement)) document.activeElement.blur();
      },
      clear: function () {
        alive();
        fields = { number: '', expiry: { month: '', year: '' }, cvc: '' };
        touched = { number: false, expiry: false, cvc: false };
        if (inputs)
          ['number', 'expiry', 'cvc'].forEach(function (name) {
            inputs[name].value = '';
          });
        update(false);
      },
      update: function (next) {
        alive();
        Object.assign(settings, next || {});
        render();
      },
    };

    internals.set(element, {
      stripe: stripe,
      mounted: function () {
        return mountNode !== null;
      },
      /** Validates everything (showing the first problem) and answers the card's fields or the error. */
      card: function () {
        touched = { number: true, expiry: true, cvc: true };
        update(true);
        if (state.error) return { error: state.error };
        return {
          number: fields.number,
          exp_month: String(Number(fields.expiry.month)),
          exp_year: String(2000 + Number(fields.expiry.year)),
          cvc: fields.cvc,
        };
      },
    });
    return element;
  }

  /** Adds `value` to form params under `prefix`, nested objects as `prefix[key]`. */
  function flatten(params, prefix, value) {
    if (value === undefined || value === null) return;
    if (typeof value === 'object') {
      Object.keys(value).forEach(function (key) {
        flatten(params, prefix + '[' + key + ']', value[key]);
      });
    } else {
      params.append(prefix, String(value));
    }
  }

  /** Posts form params to the fake API; answers { ok, json }, a connection error when it cannot be reached. */
  function post(key, path, fields) {
    var params = new URLSearchParams();
    Object.keys(fields).forEach(function (name) {
      flatten(params, name, fields[name]);
    });
    return fetch(API_BASE + path, {
      method: 'POST',
      headers: { Authorization: 'Bearer ' + key, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: params.toString(),
      credentials: 'omit',
    })
      .then(function (res) {
        return res.json().then(function (json) {
          return { ok: res.ok, json: json };
        });
      })
      .catch(function () {
        return { ok: false, json: { error: CONNECTION_ERROR } };
      });
  }

  function Stripe(publishableKey, options) {
    if (!(this instanceof Stripe)) return new Stripe(publishableKey, options);
    if (typeof publishableKey !== 'string' || publishableKey === '') {
      throw IntegrationError('Please call Stripe() with your publishable key. You used an empty string.');
    }
    // ES5 like Stripe.js's own global: the nested functions reach the instance through `self`.
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- ES5 code without arrow functions (see above)
    var self = this;
    var key = publishableKey;

    /** The card fields of a card element of this instance: { card } or { error }; throws on misuse. */
    function cardOf(element) {
      var inside = element && internals.get(element);
      if (!inside || inside.stripe !== self) {
        throw IntegrationError(
          'Invalid value for card: the card must be a card Element created by this Stripe instance.',
        );
      }
      if (!inside.mounted()) {
        throw IntegrationError(
          'We could not retrieve data from the specified Element. Please make sure the Element you are attempting to use is still mounted.',
        );
      }
      var card = inside.card();
      return card.error ? { error: card.error } : { card: card };
    }

    /** payment_method / payment_method_data params for a confirmation, or { error }. */
    function methodParams(data) {
      var method = data && data.payment_method;
      if (typeof method === 'string') return { params: { payment_method: method } };
      if (method && method.card) {
        var read = cardOf(method.card);
        if (read.error) return { error: read.error };
        return {
          params: { payment_method_data: { type: 'card', card: read.card, billing_details: method.billing_details } },
        };
      }
      return { params: {} };
    }

    /** Confirms a setup or payment intent by its client secret. */
    function confirm(kind, resultName, clientSecret, data) {
      var pattern = kind === 'setup_intents' ? /^(seti_[A-Za-z0-9]+)_secret_\w+$/ : /^(pi_[A-Za-z0-9]+)_secret_\w+$/;
      var match = pattern.exec(String(clientSecret));
      if (!match) {
        return Promise.reject(
          IntegrationError(
            'Invalid value for ' +
              resultName +
              ' confirmation: clientSecret should be a client secret of the form ${id}_secret_${secret}.',
          ),
        );
      }
      var method;
      try {
        method = methodParams(data);
      } catch (error) {
        return Promise.reject(error);
      }
      if (method.error) return Promise.resolve({ error: method.error });
      return post(
        key,
        kind + '/' + match[1] + '/confirm',
        Object.assign({ client_secret: clientSecret }, method.params),
      ).then(function (answer) {
        var result = {};
        if (answer.ok) result[resultName] = answer.json;
        else result.error = answer.json.error || CONNECTION_ERROR;
        return result;
      });
    }

    this.elements = function () {
      var cards = [];
      var group = {
        create: function (type, elementOptions) {
          if (type !== 'card')
            throw IntegrationError('The Stripe.js test double only has the card Element, not "' + String(type) + '".');
          if (cards.length) throw IntegrationError('Can only create one Element of type card.');
          var element = createCardElement(self, group, elementOptions);
          cards.push(element);
          return element;
        },
        getElement: function (type) {
          return type === 'card' && cards.length ? cards[0] : null;
        },
        update: function () {},
        forget: function (element) {
          cards = cards.filter(function (card) {
            return card !== element;
          });
        },
      };
      return group;
    };

    this.createPaymentMethod = function (typeOrData, legacyCard, legacyData) {
      var data =
        typeof typeOrData === 'string'
          ? Object.assign({ type: typeOrData, card: legacyCard }, legacyData)
          : typeOrData || {};
      if (data.type !== 'card')
        return Promise.reject(IntegrationError('The Stripe.js test double only creates card payment methods.'));
      var read;
      try {
        read = cardOf(data.card);
      } catch (error) {
        return Promise.reject(error);
      }
      if (read.error) return Promise.resolve({ error: read.error });
      return post(key, 'payment_methods', {
        type: 'card',
        card: read.card,
        billing_details: data.billing_details,
      }).then(function (answer) {
        return answer.ok ? { paymentMethod: answer.json } : { error: answer.json.error || CONNECTION_ERROR };
      });
    };

    this.confirmCardSetup = function (clientSecret, data) {
      return confirm('setup_intents', 'setupIntent', clientSecret, data);
    };

    this.confirmCardPayment = function (clientSecret, data) {
      return confirm('payment_intents', 'paymentIntent', clientSecret, data);
    };

    // What @stripe/stripe-js calls on the instance it made; nothing to do here.
    this._registerWrapper = function () {};
    this.registerAppInfo = function () {};
  }

  /** The release train @stripe/stripe-js 10 expects (it warns about test keys used with another). */
  Stripe.version = 'endive';
  Stripe.testDouble = true;
  window.Stripe = Stripe;
})();
