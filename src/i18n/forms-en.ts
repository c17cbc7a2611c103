/**
 * English texts of forms and server messages (spec sections 5 and 8): the `forms` namespace, loaded by the
 * elements that have forms (accounts, checkout, clips) rather than by every page.
 */
export const formsEn = {
  server: {
    emailTaken: 'This email is already registered.',
    wrongAuth: 'Wrong auth data',
    alreadyLoggedIn: 'You are already logged in',
    verificationFailed: 'Verification of your email address failed',
    alreadyVerified: 'Your email already verified',
    userNotFound: 'User not found',
    resetExpired: 'Reset password key expired',
    resetFailed: 'Reset password failed',
    promoInvalid: 'Promo code is invalid',
    recaptchaRequired: 'Google recaptcha token required',
    recaptchaInvalid: 'The recaptcha is invalid or looks like a robot',
    invalidLogin: 'Invalid email or password. Please try again.',
    noKey: 'No chanel or api key found.',
    clipFailed: 'Your clip creation failed',
  },
  validation: {
    email: 'A valid email address is required',
    required: 'Field is required',
    minLength: 'Field length must be greater than {{number}}',
    maxLength: 'Field length must be less than {{number}}',
    passwordShort: 'The password is too short',
    passwordMismatch: "PASSWORDS DON'T MATCH",
    firstName: 'Enter your first name',
    lastName: 'Enter your last name',
    emailEnter: 'Enter your Email',
    terms: 'Please accept terms & conditions',
    notRegistered:
      'You are not registered yet. Please accept terms and conditions and click Register to continue.',
    tag: 'Please select tag',
    input: 'Please fill in the input field',
    clipDuration: 'Your clip duration is longer than the end time',
    savedCard: 'Please select one of your saved cards or enter new one',
    phone: 'Enter a phone number of 10 to 14 digits',
  },
  gender: { M: 'Male', W: 'Female', unknown: 'Not identified' },
} as const;
