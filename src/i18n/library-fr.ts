/** French texts of the `library` namespace; the type keeps the key set identical to English. */
import type { Translation } from './en.js';
import type { libraryEn } from './library-en.js';

/** The French `library` texts. */
export const libraryFr: Translation<typeof libraryEn> = {
  title: 'Vidéothèque',
  loading: 'Chargement de la vidéothèque…',
  loadError: 'La vidéothèque n’a pas pu être chargée.',
  empty: 'La vidéothèque n’a pas encore de vidéos.',
  more: 'Afficher plus',
  loadingMore: 'Chargement…',
  search: {
    label: 'Rechercher des vidéos',
    placeholder: 'Rechercher par titre',
    searching: 'Recherche…',
    results_one: '{{count}} vidéo trouvée',
    results_other: '{{count}} vidéos trouvées',
    title: 'Résultats pour « {{query}} »',
    empty: 'Aucune vidéo ne correspond à « {{query}} »',
    error: 'La recherche a échoué.',
  },
  categories: {
    unknown: 'La catégorie « {{name}} » est introuvable : voici toute la vidéothèque.',
    label: 'Catégories',
    all: 'Toutes',
    error: 'Les catégories n’ont pas pu être chargées.',
    empty: 'Cette catégorie n’a pas encore de vidéos.',
    itemsError: 'Cette catégorie n’a pas pu être chargée.',
    count_one: '{{count}} vidéo',
    count_other: '{{count}} vidéos',
  },
  rail: {
    carousel: 'carrousel',
    previous: 'Vidéos précédentes de {{title}}',
    next: 'Vidéos suivantes de {{title}}',
    pause: 'Arrêter le défilement de {{title}}',
    play: 'Faire défiler {{title}}',
    moreIn: 'Plus dans {{category}}',
  },
  card: {
    locked: {
      'sign-in': 'Connectez-vous pour regarder',
      membership: 'Abonnés et membres vidéo sur demande',
      account: 'Non disponible pour votre compte',
    },
  },
  watch: {
    clip: 'Extrait',
    category: 'Catégorie',
    date: 'Date',
    duration: 'Durée',
    back: 'Retour à la vidéothèque',
  },
};
