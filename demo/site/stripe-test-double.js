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
 *   stripe.elements({ mode: 'payment' | 'subscription' | 'setup', amount, currency, locale, setupFutureUsage })
 *     (a deferred intent: amount in minor units, required but for setup) → elements.update(options),
 *     elements.submit() → {} | { error } (validates the field, showing its first problem; must come before a
 *     token), elements.getElement('payment'), and elements.create('payment', options) → the Payment Element:
 *     mount(node or selector), on/once/off ('ready', 'change', 'focus', 'blur', 'escape'), focus(), blur(),
 *     clear(), update(options), collapse(), unmount(), destroy(). It renders into the mount node's light DOM the card
 *     tab: three labelled inputs, "Card number", "Expiry (MM / YY)" and "CVC" (French with locale 'fr':
 *     "Numéro de carte", "Date d'expiration (MM / AA)", "CVC"), and an error area; the mount node gets Stripe's
 *     state classes (StripeElement, --empty, --focus, --complete, --invalid). Change events carry
 *     { elementType: 'payment', empty, complete, collapsed, value: { type: 'card' } }.
 *   stripe.createConfirmationToken({ elements, params }) → { confirmationToken } | { error }
 *   stripe.handleNextAction({ clientSecret }) → { paymentIntent } | { setupIntent } | { error }: an intent that
 *     asks for 3-D Secure shows the double's challenge page (Complete / Fail) in a modal dialog over the page, in an
 *     iframe; closing the dialog (its Cancel button, or Escape) fails the authentication, as the bank's would. Then
 *     the intent is read back: succeeded (or processing) resolves with it; a failed authentication resolves
 *     { error } with Stripe's code (payment_intent_authentication_failure) and message.
 *
 * Card data goes only to the reference server's Stripe double (POST /__stripe/v1/confirmation_tokens,
 * server/dev/stripe-api.ts) on the origin this script was loaded from, with the publishable key as Bearer; intents
 * are read there by their client secret (GET /__stripe/v1/payment_intents/:id?client_secret=…). The test cards
 * decide (server/dev/stripe-cards.ts): 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined,
 * 4000 0000 0000 9995 has insufficient funds, 4000 0025 0000 3155, 4000 0027 6000 3184 and 4000 0000 0000 3220 ask
 * for authentication; any other valid number is refused as incorrect. Plain script: no modules, no eval, no inline
 * styles or scripts (the demo's CSP applies; styles are set through the CSSOM).
 */
(function () {
  'use strict';

  if (typeof window.Stripe === 'function' && window.Stripe.testDouble) return;

  var script = document.currentScript;
  var API_BASE = new URL('/__stripe/v1/', script && script.src ? script.src : window.location.href).href;

  /** Stripe.js's validation messages and the field's own words, by language. */
  var TEXTS = {
    en: {
      number: 'Card number',
      expiry: 'Expiry (MM / YY)',
      expiryPlaceholder: 'MM / YY',
      cvc: 'CVC',
      card: 'Card',
      challenge: 'Authenticate your payment',
      challengeFrame: 'Your bank’s authentication page',
      cancel: 'Cancel',
      incomplete_number: 'Your card number is incomplete.',
      invalid_number: 'Your card number is invalid.',
      incomplete_expiry: "Your card's expiration date is incomplete.",
      invalid_expiry_month: "Your card's expiration month is invalid.",
      invalid_expiry_year: "Your card's expiration year is invalid.",
      invalid_expiry_year_past: "Your card's expiration year is in the past.",
      invalid_expiry_month_past: "Your card's expiration date is in the past.",
      incomplete_cvc: "Your card's security code is incomplete.",
    },
    fr: {
      number: 'Numéro de carte',
      expiry: "Date d'expiration (MM / AA)",
      expiryPlaceholder: 'MM / AA',
      cvc: 'CVC',
      card: 'Carte',
      challenge: 'Authentifiez votre paiement',
      challengeFrame: "La page d'authentification de votre banque",
      cancel: 'Annuler',
      incomplete_number: 'Le numéro de votre carte est incomplet.',
      invalid_number: 'Le numéro de votre carte est invalide.',
      incomplete_expiry: "La date d'expiration de votre carte est incomplète.",
      invalid_expiry_month: "Le mois d'expiration de votre carte n'est pas valide.",
      invalid_expiry_year: "L'année d'expiration de votre carte n'est pas valide.",
      invalid_expiry_year_past: "L'année d'expiration de votre carte est déjà passée.",
      invalid_expiry_month_past: "La date d'expiration de votre carte est déjà passée.",
      incomplete_cvc: 'Le code de sécurité de votre carte est incomplet.',
    },
  };
  var CONNECTION_ERROR = { type: 'api_connection_error', message: 'An error occurred with our connection to Stripe.' };
  var MODES = ['payment', 'subscription', 'setup'];

  function textsFor(locale) {
    var lang = String(locale || navigator.language || 'en')
      .toLowerCase()
      .split('-')[0];
    return TEXTS[lang] || TEXTS.en;
  }

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
  function validate(fields, touched, all, messages) {
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
      error: code ? { type: 'validation_error', code: code, message: messages[code] } : undefined,
    };
  }

  /** Internal access to a Payment Element's data, for the Stripe instance that created it. */
  var internals = new WeakMap();
  var nextId = 0;

  function createPaymentElement(group, options) {
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
    var texts = textsFor(group.options().locale);
    var state = validate(fields, touched, false, texts);

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
        listener.handler(Object.assign({ elementType: 'payment' }, detail || {}));
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
        inputs[name].disabled = Boolean(settings.readOnly);
      });
    }

    /** Recomputes the state and fires change when anything a listener sees changed. */
    function update(all) {
      var previous = state;
      state = validate(fields, touched, all, texts);
      render();
      var changed =
        previous.empty !== state.empty ||
        previous.complete !== state.complete ||
        (previous.error && previous.error.code) !== (state.error && state.error.code);
      if (!all) group.changed();
      if (changed || !all)
        emit('change', {
          empty: state.empty,
          complete: state.complete,
          collapsed: false,
          value: { type: 'card' },
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

    /** The card tab (the only payment method the double offers), its fields in a row. */
    function build() {
      root = document.createElement('div');
      root.className = 'stripe-double';
      root.setAttribute('role', 'group');
      root.setAttribute('aria-label', texts.card);
      var row = document.createElement('div');
      row.style.display = 'grid';
      row.style.gridTemplateColumns = 'repeat(auto-fit, minmax(8rem, 1fr))';
      row.style.gap = '8px';
      inputs = {};
      row.append(
        field('number', texts.number, 'cc-number', '1234 1234 1234 1234'),
        field('expiry', texts.expiry, 'cc-exp', texts.expiryPlaceholder),
        field('cvc', texts.cvc, 'cc-csc', 'CVC'),
      );
      errorArea = document.createElement('p');
      errorArea.id = id + '-error';
      errorArea.className = 'stripe-double-error';
      errorArea.setAttribute('aria-live', 'polite');
      errorArea.style.margin = '4px 0 0';
      root.append(row, errorArea);
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
      collapse: function () {
        alive();
      },
      update: function (next) {
        alive();
        Object.assign(settings, next || {});
        render();
      },
    };

    internals.set(element, {
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
      /** The words of another language (elements.update({ locale })). */
      relabel: function () {
        texts = textsFor(group.options().locale);
        if (!mountNode) return;
        var node = mountNode;
        element.unmount();
        element.mount(node);
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

  /** Calls the double's API; answers { ok, json }, a connection error when it cannot be reached. */
  function call(key, method, path, fields) {
    var params = new URLSearchParams();
    Object.keys(fields).forEach(function (name) {
      flatten(params, name, fields[name]);
    });
    var get = method === 'GET';
    return fetch(API_BASE + path + (get ? '?' + params.toString() : ''), {
      method: method,
      headers: get
        ? { Authorization: 'Bearer ' + key }
        : { Authorization: 'Bearer ' + key, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: get ? undefined : params.toString(),
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

  /** The deferred intent's options, checked as Stripe.js checks them. */
  function checkOptions(options) {
    if (MODES.indexOf(options.mode) < 0)
      throw IntegrationError(
        'Invalid value for elements(): mode should be one of the following strings: payment, setup, subscription. You specified: ' +
          String(options.mode) +
          '.',
      );
    if (
      options.mode !== 'setup' &&
      !(typeof options.amount === 'number' && options.amount >= 0 && options.amount % 1 === 0)
    )
      throw IntegrationError(
        'Invalid value for elements(): amount should be a positive integer (in the currency’s smallest unit) when mode is ' +
          options.mode +
          '. You specified: ' +
          String(options.amount) +
          '.',
      );
    if (!/^[a-z]{3}$/.test(String(options.currency)))
      throw IntegrationError(
        'Invalid value for elements(): currency should be a lowercase three-letter ISO currency code. You specified: ' +
          String(options.currency) +
          '.',
      );
    if (
      options.setupFutureUsage &&
      options.setupFutureUsage !== 'off_session' &&
      options.setupFutureUsage !== 'on_session'
    )
      throw IntegrationError('Invalid value for elements(): setupFutureUsage should be off_session or on_session.');
  }

  /**
   * The challenge of an intent that asks for 3-D Secure: its page (the double's, Complete / Fail) in an iframe of a
   * modal dialog. Resolves once the page answered (the iframe loads again after its form) or the viewer closed the
   * dialog, which fails the authentication first.
   */
  function challenge(key, url, texts) {
    return new Promise(function (resolve) {
      var dialog = document.createElement('dialog');
      dialog.className = 'stripe-double-challenge';
      dialog.setAttribute('aria-label', texts.challenge);
      dialog.style.width = 'min(480px, calc(100vw - 32px))';
      dialog.style.height = 'min(640px, calc(100vh - 32px))';
      dialog.style.padding = '0';
      dialog.style.border = '0';
      dialog.style.borderRadius = '8px';
      var frame = document.createElement('iframe');
      frame.title = texts.challengeFrame;
      frame.src = url;
      frame.style.display = 'block';
      frame.style.width = '100%';
      frame.style.height = 'calc(100% - 48px)';
      frame.style.border = '0';
      var cancel = document.createElement('button');
      cancel.type = 'button';
      cancel.textContent = texts.cancel;
      cancel.style.margin = '8px';
      dialog.append(frame, cancel);
      var loads = 0;
      var done = false;
      function finish() {
        if (done) return;
        done = true;
        if (dialog.open) dialog.close();
        dialog.remove();
        resolve();
      }
      function fail() {
        if (done) return;
        var id = url.slice(url.lastIndexOf('/') + 1);
        call(key, 'POST', '3ds/' + encodeURIComponent(id), { result: 'fail' }).then(finish);
      }
      frame.addEventListener('load', function () {
        // The first load is the challenge; the next one is its answer (the form posted).
        if (++loads > 1) finish();
      });
      cancel.addEventListener('click', fail);
      dialog.addEventListener('cancel', function (event) {
        event.preventDefault();
        fail();
      });
      document.body.append(dialog);
      dialog.showModal();
    });
  }

  function Stripe(publishableKey, options) {
    if (!(this instanceof Stripe)) return new Stripe(publishableKey, options);
    if (typeof publishableKey !== 'string' || publishableKey === '') {
      throw IntegrationError('Please call Stripe() with your publishable key. You used an empty string.');
    }
    var key = publishableKey;
    var instanceLocale = options && options.locale;
    /** The Elements groups of this instance and their state. */
    var groups = new WeakMap();

    this.elements = function (elementsOptions) {
      var settings = Object.assign({ locale: instanceLocale }, elementsOptions);
      checkOptions(settings);
      var payment = null;
      var submitted = false;
      var group = {
        create: function (type, elementOptions) {
          if (type !== 'payment')
            throw IntegrationError(
              'The Stripe.js test double only has the Payment Element, not "' + String(type) + '".',
            );
          if (payment) throw IntegrationError('Can only create one Element of type payment.');
          payment = createPaymentElement(inside, elementOptions);
          return payment;
        },
        getElement: function (type) {
          return type === 'payment' ? payment : null;
        },
        update: function (next) {
          var merged = Object.assign({}, settings, next || {});
          checkOptions(merged);
          var relabel = merged.locale !== settings.locale;
          settings = merged;
          if (relabel && payment) internals.get(payment).relabel();
        },
        submit: function () {
          if (!payment || !internals.get(payment).mounted())
            return Promise.resolve({
              error: { type: 'validation_error', message: 'The Payment Element is not mounted.' },
            });
          var card = internals.get(payment).card();
          submitted = !card.error;
          return Promise.resolve(card.error ? { error: card.error } : {});
        },
      };
      var inside = {
        options: function () {
          return settings;
        },
        changed: function () {
          submitted = false;
        },
        forget: function (element) {
          if (payment === element) payment = null;
        },
      };
      groups.set(group, {
        inside: inside,
        submitted: function () {
          return submitted;
        },
        payment: function () {
          return payment;
        },
      });
      return group;
    };

    this.createConfirmationToken = function (data) {
      var group = data && data.elements;
      var known = group && groups.get(group);
      if (!known)
        return Promise.reject(
          IntegrationError('Invalid value for createConfirmationToken: elements should be an Elements group.'),
        );
      var payment = known.payment();
      if (!payment || !internals.get(payment).mounted())
        return Promise.reject(
          IntegrationError(
            'We could not retrieve data from the specified Element. Please make sure the Element you are attempting to use is still mounted.',
          ),
        );
      if (!known.submitted())
        return Promise.resolve({
          error: {
            type: 'invalid_request_error',
            message:
              'elements.submit() must be called before stripe.createConfirmationToken(). Call elements.submit() as soon as your customer presses pay, prior to any asynchronous work.',
          },
        });
      var card = internals.get(payment).card();
      if (card.error) return Promise.resolve({ error: card.error });
      var params = (data && data.params) || {};
      var methodData = params.payment_method_data || {};
      return call(key, 'POST', 'confirmation_tokens', {
        payment_method_data: { type: 'card', card: card, billing_details: methodData.billing_details },
        setup_future_usage: known.inside.options().setupFutureUsage || undefined,
      }).then(function (answer) {
        return answer.ok ? { confirmationToken: answer.json } : { error: answer.json.error || CONNECTION_ERROR };
      });
    };

    /** An intent read back by its client secret: { intent } or { error }. */
    function readIntent(kind, id, clientSecret) {
      return call(key, 'GET', kind + '/' + id, { client_secret: clientSecret }).then(function (answer) {
        return answer.ok ? { intent: answer.json } : { error: answer.json.error || CONNECTION_ERROR };
      });
    }

    /** handleNextAction's answer for an intent as it now stands. */
    function outcome(intent) {
      var setup = intent.object === 'setup_intent';
      var failure = setup ? intent.last_setup_error : intent.last_payment_error;
      if (intent.status === 'requires_payment_method' && failure) {
        var error = Object.assign({}, failure);
        error[setup ? 'setup_intent' : 'payment_intent'] = intent;
        return { error: error };
      }
      var result = {};
      result[setup ? 'setupIntent' : 'paymentIntent'] = intent;
      return result;
    }

    this.handleNextAction = function (data) {
      var clientSecret = String((data && data.clientSecret) || '');
      var match = /^((pi|seti)_[A-Za-z0-9]+)_secret_\w+$/.exec(clientSecret);
      if (!match)
        return Promise.reject(
          IntegrationError(
            'Invalid value for handleNextAction: clientSecret should be a client secret of the form ${id}_secret_${secret}.',
          ),
        );
      var kind = match[2] === 'pi' ? 'payment_intents' : 'setup_intents';
      var texts = textsFor(instanceLocale || document.documentElement.lang);
      return readIntent(kind, match[1], clientSecret).then(function (read) {
        if (read.error) return { error: read.error };
        var next = read.intent.next_action;
        var url = next && next.use_stripe_sdk && next.use_stripe_sdk.stripe_js;
        if (read.intent.status !== 'requires_action' || !url) return outcome(read.intent);
        return challenge(key, url, texts)
          .then(function () {
            return readIntent(kind, match[1], clientSecret);
          })
          .then(function (after) {
            return after.error ? { error: after.error } : outcome(after.intent);
          });
      });
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
