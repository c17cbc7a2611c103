/** French texts of the `forms` namespace; the type keeps the key set identical to English. */
import type { Translation } from './en.js';
import type { formsEn } from './forms-en.js';

export const formsFr: Translation<typeof formsEn> = {
  server: {
    emailTaken: 'Cette adresse e-mail est déjà enregistrée.',
    wrongAuth: "Données d'authentification incorrectes",
    alreadyLoggedIn: 'Vous êtes déjà connecté',
    verificationFailed: 'La vérification de votre adresse e-mail a échoué',
    alreadyVerified: 'Votre adresse e-mail est déjà vérifiée',
    userNotFound: 'Utilisateur introuvable',
    resetExpired: 'La clé de réinitialisation du mot de passe a expiré',
    resetFailed: 'La réinitialisation du mot de passe a échoué',
    promoInvalid: 'Le code promo est invalide',
    recaptchaRequired: 'Le jeton Google reCAPTCHA est requis',
    recaptchaInvalid: 'Le reCAPTCHA est invalide ou ressemble à un robot',
    invalidLogin: 'E-mail ou mot de passe invalide. Veuillez réessayer.',
    noKey: 'Aucune clé de chaîne ou clé API trouvée.',
    clipFailed: 'La création de votre extrait a échoué',
  },
  validation: {
    email: 'Une adresse e-mail valide est requise',
    required: 'Ce champ est obligatoire',
    minLength: 'La longueur du champ doit être supérieure à {{number}}',
    maxLength: 'La longueur du champ doit être inférieure à {{number}}',
    passwordShort: 'Le mot de passe est trop court',
    passwordMismatch: 'LES MOTS DE PASSE NE CORRESPONDENT PAS',
    firstName: 'Saisissez votre prénom',
    lastName: 'Saisissez votre nom',
    emailEnter: 'Saisissez votre e-mail',
    terms: 'Veuillez accepter les conditions générales',
    notRegistered:
      "Vous n'êtes pas encore inscrit. Veuillez accepter les conditions générales et cliquer sur S'inscrire pour continuer.",
    tag: 'Veuillez choisir une étiquette',
    input: 'Veuillez remplir le champ',
    clipDuration: "La durée de votre extrait dépasse l'heure de fin",
    savedCard: "Veuillez choisir l'une de vos cartes enregistrées ou en saisir une nouvelle",
    phone: 'Saisissez un numéro de téléphone de 10 à 14 chiffres',
  },
  gender: { M: 'Homme', W: 'Femme', unknown: 'Non précisé' },
};
